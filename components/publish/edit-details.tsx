"use client";
// Edit details: for tokens that may patch this resource, a dialog to change the resource's name, description,
// private flag and data dictionary, and to delete it (after a second step that asks).
import { useT } from "@/components/i18n/i18n-provider";
import { useState } from "react";
import { createPortal } from "react-dom";
import type { DatastoreField, Resource } from "@/lib/api-client";
import { draftFrom, type DetailsDraft } from "@/lib/api-client/details";
import { useScope } from "@/components/token/use-scope";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { ConfirmDelete } from "./details-delete";
import { DetailsForm } from "./details-form";

export function EditDetails({ resource, fields, onDeleted }: { resource: Resource; fields: DatastoreField[]; onDeleted: () => void }) {
  const { may } = useScope();
  const [step, setStep] = useState<"closed" | "edit" | "delete">("closed");
  const t = useT();
  // what is typed, kept while the delete step asks; each opening starts from the resource as it is
  const [draft, setDraft] = useState<DetailsDraft | null>(null);
  if (!may("resource_patch", resource.id)) return null;
  const close = () => setStep("closed");
  return (
    <>
      <Button
        onClick={() => {
          setDraft(draftFrom(resource, fields));
          setStep("edit");
        }}
        className="ml-1 font-medium"
      >
        {t("details.button")}
      </Button>
      {/* out of the page heading the button sits in: the dialog is not part of its name */}
      {createPortal(
        <Dialog open={step !== "closed"} onClose={close} title={t("details.button")}>
          {step === "delete" ? (
            <ConfirmDelete
              resource={resource}
              onCancel={() => setStep("edit")}
              onDeleted={() => {
                close();
                onDeleted();
              }}
            />
          ) : (
            draft && (
              <DetailsForm
                resource={resource}
                fields={fields}
                draft={draft}
                setDraft={setDraft}
                onDone={close}
                onDelete={may("resource_delete", resource.id) ? () => setStep("delete") : null}
                dictionary={may("datastore_create", resource.id)}
              />
            )
          )}
        </Dialog>,
        document.body,
      )}
    </>
  );
}
