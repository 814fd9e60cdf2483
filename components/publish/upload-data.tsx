"use client";
// "Upload data": for a token that may import somewhere (a new resource, or one of its own), a dialog that sends a file, previews it, and imports
// it as a new resource or into an existing one. Closing it at any step leaves nothing behind.
import { useT } from "@/components/i18n/i18n-provider";
import { useCallback, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { useScope } from "@/components/token/use-scope";
import { importModes } from "./upload-draft";
import { useUploadFlow } from "./upload-flow";
import { UploadSteps } from "./upload-steps";

export function UploadData({ onDone }: { onDone: (resourceId: string) => void }) {
  const { may, maySomewhere } = useScope();
  const [open, setOpen] = useState(false);
  const t = useT();
  const done = useCallback(
    (resourceId: string) => {
      setOpen(false);
      onDone(resourceId);
    },
    [onDone],
  );
  const flow = useUploadFlow(done);
  const { abandon } = flow;
  const close = useCallback(() => {
    abandon();
    setOpen(false);
  }, [abandon]);

  if (!importModes(may, maySomewhere).length && !open) return null;
  return (
    <>
      <Button onClick={() => setOpen(true)}>{t("upload.button")}</Button>
      <Dialog open={open} onClose={close} title={t("upload.button")} className="md:max-w-4xl">
        <UploadSteps flow={flow} onCancel={close} />
      </Dialog>
    </>
  );
}
