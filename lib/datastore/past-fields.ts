// Each version's field list (issue 27), the same on every engine. When datastore_create changes
// the fields of a resource that keeps history, the engine keeps the list before the change,
// keyed by the last version that had it (`until`), and keeps a dropped field's column (live
// and in the images) while a kept version may read it: "retired", in no current list. A past
// read, a record's history and the changes then read each version with its own list.
import type { StoredField, StoredResource } from "./catalog-row";

/** A field list that held up to and including version `until`. */
export interface FieldList {
  until: number;
  fields: StoredField[];
}

/** The list version v read: the first kept until v or later; undefined: today's. `lists`
 *  are in `until` order. */
export function listAt(lists: readonly FieldList[], v: number): StoredField[] | undefined {
  return lists.find((l) => l.until >= v)?.fields;
}

/** The fields of past lists whose columns today's list has not (each column once). */
export function retiredFields(lists: readonly FieldList[], today: readonly StoredField[]): StoredField[] {
  const seen = new Set(today.map((f) => f.column));
  const out: StoredField[] = [];
  for (const l of lists) {
    for (const f of l.fields) {
      if (seen.has(f.column)) continue;
      seen.add(f.column);
      out.push(f);
    }
  }
  return out;
}

/** Whether two lists differ in a way a reader sees (ids, order, types, columns, info). */
export function sameFields(a: readonly StoredField[], b: readonly StoredField[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The resource with another field list (its columns as that list names them). */
export function withFields<R extends StoredResource>(r: R, fields: readonly StoredField[]): R {
  return {
    ...r,
    fields: fields.map(({ id, type, info }) => (info ? { id, type, info } : { id, type })),
    columns: new Map(fields.map((f) => [f.id, f])),
  };
}

/**
 * One stored row (`_id`, then `columns` in order) as records with the list of a version: each
 * field read from its column, and null when the row has not that column (retired columns
 * trimmed by the history's retention).
 */
export function rowReader(columns: readonly StoredField[], read: (f: StoredField, value: unknown) => unknown) {
  const at = new Map(columns.map((f, i) => [f.column, i + 1]));
  return (row: readonly unknown[], fields: readonly StoredField[]): Record<string, unknown> => {
    const out: Record<string, unknown> = { _id: Number(row[0]) };
    for (const f of fields) {
      const i = at.get(f.column);
      out[f.id] = i === undefined ? null : read(f, row[i]);
    }
    return out;
  };
}
