"use client";
// Add or edit one field's chip: pick a condition (is, is not, between, is empty, is not empty),
// then its values or range. Nothing changes until "Apply filter" (draft, then apply); Enter in
// the value, From or To box applies too. It opens with the focus where one types next.
import { useState } from "react";
import type { DatastoreField } from "@/lib/api-client";
import type { Translate } from "@/lib/i18n";
import { chipValue, fieldKey, type Chip, type Scalar, type ViewState } from "@/lib/view-state";
import { useT } from "@/components/i18n/i18n-provider";
import { Button } from "@/components/ui/button";
import { ConditionChoice, conditionsFor, type Condition } from "./condition-choice";
import { describeType } from "./format";
import { boundToInput, compareBounds, parseBound, rangeKind, type RangeKind } from "./range-kind";
import { RangePicker, type RangeDraft } from "./range-picker";
import { useValueDraft } from "./use-value-draft";
import { ValuePicker } from "./value-picker";

function initialCondition(chip: Chip | undefined, kind: RangeKind | null): Condition {
  switch (chip?.kind) {
    case "is":
    case "not":
      return chip.kind;
    case "range":
      return kind ? "between" : "is";
    case "empty":
      return chip.empty ? "empty" : "filled";
    default:
      // exact instants are rarely what one wants from a date: offer their range first
      return kind === "date" || kind === "timestamp" ? "between" : "is";
  }
}

function initialRange(chip: Chip | undefined, kind: RangeKind | null): RangeDraft {
  const empty = { from: "", to: "", fromBad: false, toBad: false };
  if (chip?.kind !== "range" || !kind) return empty;
  return { ...empty, from: boundToInput(chip.from, kind), to: boundToInput(chip.to, kind) };
}

type Result = { ok: true; chip: Chip } | { ok: false; message: string };

/** The range draft as a chip, or what is wrong with it. */
function rangeChip(field: DatastoreField, kind: RangeKind, draft: RangeDraft, t: Translate): Result {
  if (draft.fromBad || draft.toBad) {
    return { ok: false, message: draft.fromBad ? t("filter.incomplete.from") : t("filter.incomplete.to") };
  }
  const from = parseBound(draft.from, kind, "From", field.id, field.type, t);
  if (!from.ok) return from;
  const to = parseBound(draft.to, kind, "To", field.id, field.type, t);
  if (!to.ok) return to;
  if (from.value !== null && to.value !== null && compareBounds(from.value, to.value, kind) > 0) {
    return { ok: false, message: t("filter.fromAfterTo") };
  }
  return { ok: true, chip: { kind: "range", field: field.id, from: from.value, to: to.value } };
}

export function FilterEditor({
  view,
  field,
  chip,
  onApply,
  onBack,
  onRemove,
  onCancel,
}: {
  view: ViewState;
  field: DatastoreField;
  /** The field's chip now, if it has one. */
  chip: Chip | undefined;
  onApply: (chip: Chip) => void;
  onBack?: () => void;
  onRemove?: () => void;
  onCancel: () => void;
}) {
  const kind = rangeKind(field.type);
  const t = useT();
  const [condition, setCondition] = useState<Condition>(() => initialCondition(chip, kind));
  const initialValues: Scalar[] = chip?.kind === "is" || chip?.kind === "not" ? chip.values : [];
  const values = useValueDraft(initialValues, field);
  const [range, setRange] = useState<RangeDraft>(() => initialRange(chip, kind));
  const [rangeError, setRangeError] = useState<string | null>(null);
  // the first control takes the focus when the editor opens, not after a change of condition
  const [conditionChanged, setConditionChanged] = useState(false);
  const autoFocus = !conditionChanged;
  const key = fieldKey(field.id);
  // a condition this editor can't show (`gt`, a mixed list, a range on text)
  const foreign = chip && (chip.kind === "other" || (chip.kind === "range" && !kind)) ? chip : undefined;

  const nothing =
    condition === "is" || condition === "not"
      ? values.selected.length === 0 && !values.typed.trim()
      : condition === "between" && !range.from.trim() && !range.to.trim() && !range.fromBad && !range.toBad;

  function applyValues(chosen: Scalar[]) {
    // an empty choice removes the chip being edited; a new one needs a value
    if (chosen.length > 0 || onRemove) onApply({ kind: condition === "not" ? "not" : "is", field: field.id, values: chosen });
  }

  function apply() {
    if (nothing && !onRemove) return;
    if (condition === "is" || condition === "not") {
      // a value typed but not yet added counts too
      const chosen = values.addTyped();
      if (chosen) onApply({ kind: condition, field: field.id, values: chosen });
    } else if (condition === "between" && kind) {
      const result = rangeChip(field, kind, range, t);
      if (result.ok) onApply(result.chip);
      else setRangeError(result.message);
    } else {
      onApply({ kind: "empty", field: field.id, empty: condition === "empty" });
    }
  }

  return (
    <form
      className="space-y-4"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        apply();
      }}
    >
      <ConditionChoice
        field={field.id}
        type={describeType(field.type, t)}
        conditions={conditionsFor(kind !== null)}
        value={condition}
        autoFocus={autoFocus && (condition === "empty" || condition === "filled")}
        onChange={(next) => {
          setCondition(next);
          setConditionChanged(true);
        }}
      />
      <p className="text-sm text-zinc-700 dark:text-zinc-300">{t(`hint.${condition}`, { field: field.id })}</p>
      {foreign && (
        <p className="rounded-md border border-amber-300 bg-amber-50 p-2 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
          {t("filter.foreignNow")} <code className="break-all">{JSON.stringify(chipValue(foreign))}</code>
          {t("filter.foreignByHand")}
        </p>
      )}

      {condition === "is" || condition === "not" ? (
        <ValuePicker view={view} field={field} chipKey={key} draft={values} autoFocus={autoFocus} onEnter={applyValues} />
      ) : condition === "between" && kind ? (
        <RangePicker
          view={view}
          field={field}
          chipKey={key}
          kind={kind}
          draft={range}
          error={rangeError}
          autoFocus={autoFocus}
          onChange={(next) => {
            setRange(next);
            setRangeError(null);
          }}
        />
      ) : null}

      <div className="flex flex-wrap gap-2 border-t pt-3">
        <Button variant="primary" type="submit" disabled={nothing && !onRemove}>
          {t("filter.apply")}
        </Button>
        {onBack && <Button onClick={onBack}>{t("filter.backToFields")}</Button>}
        {onRemove && (
          <Button variant="danger" onClick={onRemove}>
            {t("filter.remove")}
          </Button>
        )}
        <Button variant="ghost" onClick={onCancel}>
          {t("common.cancel")}
        </Button>
      </div>
    </form>
  );
}
