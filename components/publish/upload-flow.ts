"use client";
// The upload dialog's steps as React state: choose a file (sent at once), review the preview,
// import with progress. Whatever ends the flow early (Cancel, Close, Escape, leaving the page)
// aborts the request in flight and deletes the upload, so nothing is left on the server.
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { ApiError } from "@/lib/api-client";
import { deleteUpload, importUpload, sendUpload, type ImportProgress, type UploadPreview } from "@/lib/api-client/upload";
import { useT } from "@/components/i18n/i18n-provider";
import { useToken } from "@/components/token/token-provider";
import { useScope } from "@/components/token/use-scope";
import { importModes, importRequest, initialDraft, type UploadDraft } from "./upload-draft";

export type UploadStage =
  | { step: "choose" }
  | { step: "sending"; file: File; sent: number; total: number }
  | { step: "preview"; preview: UploadPreview }
  | { step: "importing"; preview: UploadPreview; progress: ImportProgress | null };

/** The server's words, verbatim, and what happens next. */
export type UploadProblem = { message: string; next: string };

function isAbort(e: unknown): boolean {
  return e instanceof DOMException && e.name === "AbortError";
}

/** The server's message and any per-field messages of a 409. */
function serverMessage(e: unknown): string {
  if (!(e instanceof ApiError)) return e instanceof Error ? e.message : String(e);
  const details = Object.entries(e.details)
    .filter(([key]) => key !== "data")
    .map(([key, v]) => `${key}: ${Array.isArray(v) ? v.join("; ") : typeof v === "string" ? v : JSON.stringify(v)}`);
  return [e.message, ...details].join(" — ");
}

export function useUploadFlow(onDone: (resourceId: string) => void) {
  const { session } = useToken();
  const { may, maySomewhere } = useScope();
  const t = useT();
  const firstMode = importModes(may, maySomewhere)[0];
  const queryClient = useQueryClient();
  const [stage, setStage] = useState<UploadStage>({ step: "choose" });
  const [draft, setDraft] = useState<UploadDraft | null>(null);
  const [problem, setProblem] = useState<UploadProblem | null>(null);
  const request = useRef<AbortController | null>(null);
  // the upload kept on the server, and the token that owns it
  const held = useRef<{ id: string; token: string | null } | null>(null);

  const release = useCallback(() => {
    request.current?.abort();
    request.current = null;
    const upload = held.current;
    held.current = null;
    // already gone (imported, expired, removed on disconnect) is as good as deleted
    if (upload) deleteUpload(upload.id, upload).catch(() => undefined);
  }, []);

  /** Ends the flow early: nothing stays on the server. */
  const abandon = useCallback(() => {
    release();
    setStage({ step: "choose" });
    setDraft(null);
    setProblem(null);
  }, [release]);

  useEffect(() => release, [release]);

  const choose = useCallback(
    (file: File) => {
      release();
      const controller = new AbortController();
      request.current = controller;
      const auth = { token: session.token };
      setProblem(null);
      setStage({ step: "sending", file, sent: 0, total: file.size });
      sendUpload(
        file,
        auth,
        {
          signal: controller.signal,
          onProgress: (sent, total) => setStage((s) => (s.step === "sending" ? { ...s, sent, total } : s)),
        },
        t,
      ).then(
        (preview) => {
          if (controller.signal.aborted) {
            deleteUpload(preview.upload_id, auth).catch(() => undefined);
            return;
          }
          request.current = null;
          held.current = { id: preview.upload_id, token: auth.token };
          setDraft(initialDraft(preview, firstMode));
          setStage({ step: "preview", preview });
        },
        (e: unknown) => {
          if (isAbort(e)) return;
          request.current = null;
          setStage({ step: "choose" });
          setProblem({ message: serverMessage(e), next: t("upload.next.otherFile") });
        },
      );
    },
    [release, session.token, firstMode, t],
  );

  const submit = useCallback(() => {
    const upload = held.current;
    // request.current: an import already under way (a double click)
    if (stage.step !== "preview" || !draft || !upload || request.current) return;
    if (draft.mode !== "new" && !draft.target) {
      setProblem({ message: t("upload.chooseTarget"), next: t("upload.next.nothing") });
      return;
    }
    const { preview } = stage;
    const controller = new AbortController();
    request.current = controller;
    setProblem(null);
    setStage({ step: "importing", preview, progress: null });
    importUpload(
      upload.id,
      importRequest(draft),
      upload,
      {
        signal: controller.signal,
        onProgress: (progress) => setStage((s) => (s.step === "importing" ? { ...s, progress } : s)),
      },
      t,
    ).then(
      (result) => {
        request.current = null;
        held.current = null;
        void queryClient.invalidateQueries({ queryKey: ["datastore"] });
        setStage({ step: "choose" });
        setDraft(null);
        onDone(result.resource_id);
      },
      (e: unknown) => {
        if (isAbort(e)) return;
        request.current = null;
        const message = serverMessage(e);
        if (e instanceof ApiError && e.kind === "not-found" && /upload/i.test(e.message)) {
          // expired or removed: the file must be sent again
          held.current = null;
          setStage({ step: "choose" });
          setDraft(null);
          setProblem({ message, next: t("upload.next.again") });
          return;
        }
        // the upload is kept: the user may change types or names and import again
        setStage({ step: "preview", preview });
        setProblem({ message, next: t("upload.next.change") });
      },
    );
  }, [draft, onDone, queryClient, stage, t]);

  return { stage, draft, setDraft, problem, choose, submit, abandon };
}
