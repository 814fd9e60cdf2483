// Finding a field by what the user types: its id or its data dictionary label (`info.label`),
// case-insensitive, best matches first, so Enter can take the first.
import type { DatastoreField } from "@/lib/api-client";

/** The field's data dictionary label, when it says more than the id. */
export function fieldLabel(field: DatastoreField): string | null {
  const label = field.info?.label;
  return typeof label === "string" && label.trim() && label !== field.id ? label : null;
}

/** Fields whose id or label contains the term: exact matches first, then those starting with
 *  it, then the rest, each group in the table's order. */
export function matchFields(fields: DatastoreField[], term: string): DatastoreField[] {
  const needle = term.trim().toLowerCase();
  if (!needle) return fields;
  const rank = (f: DatastoreField) => {
    const names = [f.id, fieldLabel(f) ?? ""].map((n) => n.toLowerCase());
    if (names.includes(needle)) return 0;
    if (names.some((n) => n.startsWith(needle))) return 1;
    return names.some((n) => n.includes(needle)) ? 2 : 3;
  };
  return fields
    .map((f) => ({ f, r: rank(f) }))
    .filter((x) => x.r < 3)
    .sort((a, b) => a.r - b.r)
    .map((x) => x.f);
}
