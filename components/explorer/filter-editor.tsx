"use client";
// Add or edit one field's chip: pick a condition (is, is not, between, is empty, is not empty),
// then its values or range. Nothing changes until "Apply filter" (draft, then apply); Enter in
// the value, From or To box applies too. It opens with the focus where one types next.
import { useState } from "react";
import type { DatastoreField } from "@/lib/api-client";
import { chipValue, fieldKey, type Chip, type Scalar, type ViewState } from "@/lib/view-state";
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

const HINTS: Record<Condition, (field: string) => string> = {
  is: (f) => `Keeps records whose ${f} is any of the values you tick.`,
  not: (f) => `Keeps records whose ${f} is none of the values you tick. Records where ${f} has no value are kept too.`,
  between: (f) => `Keeps records whose ${f} is between From and To, both included. Leave one empty for no limit on that side.`,
  empty: (f) => `Keeps records where ${f} has no value (null, or empty text).`,
  filled: (f) => `Keeps records where ${f} has a value (neither null nor empty text).`,
};

type Result = { ok: true; chip: Chip } | { ok: false; message: string };

/** The range draft as a chip, or what is wrong with it. */
function rangeChip(field: DatastoreField, kind: RangeKind, draft: RangeDraft): Result {
  if (draft.fromBad || draft.toBad) {
    return { ok: false, message: `${draft.fromBad ? "From" : "To"} is not complete yet: finish it, or clear it.` };
  }
  const from = parseBound(draft.from, kind, "From", field.id, field.type);
  if (!from.ok) return from;
  const to = parseBound(draft.to, kind, "To", field.id, field.type);
  if (!to.ok) return to;
  if (from.value !== null && to.value !== null && compareBounds(from.value, to.value, kind) > 0) {
    return { ok: false, message: "From is after To: swap them, or change one." };
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
      const result = rangeChip(field, kind, range);
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
        type={describeType(field.type)}
        conditions={conditionsFor(kind !== null)}
        value={condition}
        autoFocus={autoFocus && (condition === "empty" || condition === "filled")}
        onChange={(next) => {
          setCondition(next);
          setConditionChanged(true);
        }}
      />
      <p className="text-sm text-zinc-700 dark:text-zinc-300">{HINTS[condition](field.id)}</p>
      {foreign && (
        <p className="rounded-md border border-amber-300 bg-amber-50 p-2 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
          Now: <code className="break-all">{JSON.stringify(chipValue(foreign))}</code>, written by hand. Applying a
          condition here replaces it.
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
          Apply filter
        </Button>
        {onBack && <Button onClick={onBack}>Back to fields</Button>}
        {onRemove && (
          <Button variant="danger" onClick={onRemove}>
            Remove filter
          </Button>
        )}
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
