"use client";
// The upload dialog's contents for each step: choose a file, watch it being sent, review the
// preview and details, watch the import. Errors show the server's words and what happens next.
import { useT } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { UploadFileInput } from "./upload-file-input";
import type { useUploadFlow } from "./upload-flow";
import { UploadForm } from "./upload-form";
import { importText, sentText } from "./upload-format";
import { UploadPreview } from "./upload-preview";
import { UploadProgress } from "./upload-progress";

type Flow = ReturnType<typeof useUploadFlow>;

export function UploadSteps({ flow, onCancel }: { flow: Flow; onCancel: () => void }) {
  const { stage, draft, setDraft, problem } = flow;
  const t = useT();
  const cancel = (
    <Button onClick={onCancel} variant={stage.step === "sending" || stage.step === "importing" ? "danger" : "secondary"}>
      {t("common.cancel")}
    </Button>
  );

  return (
    <div className="space-y-4">
      {problem && (
        <Notice tone="error" role="alert" title={problem.message}>
          <p>{problem.next}</p>
        </Notice>
      )}

      {stage.step === "choose" && (
        <>
          <UploadFileInput onFile={flow.choose} />
          <div className="flex justify-end">{cancel}</div>
        </>
      )}

      {stage.step === "sending" && (
        <>
          <p className="text-sm font-medium break-all">{stage.file.name}</p>
          <UploadProgress
            percent={stage.total > 0 ? (stage.sent / stage.total) * 100 : null}
            text={stage.total > 0 && stage.sent >= stage.total ? t("upload.readingPreview", { sent: sentText(stage.sent, stage.total, t) }) : sentText(stage.sent, stage.total, t)}
          />
          <div className="flex justify-end">{cancel}</div>
        </>
      )}

      {stage.step === "preview" && draft && (
        <form
          className="space-y-4"
          onSubmit={(e) => {
            e.preventDefault();
            flow.submit();
          }}
        >
          <UploadPreview
            preview={stage.preview}
            columns={draft.columns}
            onChange={(columns) => setDraft({ ...draft, columns })}
            showTypes={draft.mode !== "append"}
          />
          <UploadForm draft={draft} onChange={setDraft} />
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="ghost" onClick={flow.abandon}>
              {t("upload.chooseAnother")}
            </Button>
            {cancel}
            <Button type="submit" variant="primary">
              {t(`upload.submit.${draft.mode}`)}
            </Button>
          </div>
        </form>
      )}

      {stage.step === "importing" && (
        <>
          <p className="text-sm font-medium break-all">{t("upload.importing", { file: stage.preview.filename })}</p>
          <UploadProgress
            percent={stage.progress ? stage.progress.fraction * 100 : null}
            text={stage.progress ? importText(stage.progress, t) : t("upload.starting")}
          />
          <div className="flex justify-end">{cancel}</div>
        </>
      )}
    </div>
  );
}
