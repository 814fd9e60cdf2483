// What an import loads: the columns (a keyed file's from the keys its sample holds), their
// types (declared, widened by an earlier attempt, declared by the file, or inferred from the
// sample), and, for an append, the resource's own types. Shared with the upload preview.
import type { Resource } from "../datastore/engine";
import type { TypeName } from "../datastore/types";
import { TypeSampler } from "./infer";
import { toPositional, type Plan } from "./rows";
import { ImportError, type Batch, type Source } from "./source";
import { optionName, type Wording } from "./wording";

export function planNew(
  source: Source,
  sample: Batch[],
  userTypes: Record<string, TypeName>,
  widened: Record<string, TypeName>,
  addColumns: string[],
  wording?: Wording,
): Plan {
  let columns = source.columns;
  if (source.keyed) {
    const seen = new Set<string>();
    for (const batch of sample) for (const rec of batch.rows as Record<string, unknown>[]) for (const k of Object.keys(rec)) seen.add(k);
    for (const k of addColumns) seen.add(k);
    columns = [...seen];
  }
  if (columns.length === 0) throw new ImportError("the file has no columns");
  for (const f of Object.keys(userTypes)) {
    if (!columns.includes(f)) throw new ImportError(`${optionName(wording, "types")}: "${f}" is not a column of the file`);
  }
  let sampled: TypeName[] = [];
  if (!source.declared || source.declared.some((t) => t === undefined)) {
    const sampler = new TypeSampler(columns.length);
    const index = new Map(columns.map((c, i) => [c, i]));
    for (const batch of sample) {
      const rows = source.keyed ? toPositional(batch, index, columns.length, source, false) : (batch.rows as unknown[][]);
      for (const row of rows) sampler.add(row);
    }
    sampled = sampler.types();
  }
  const types = columns.map((c, i) => userTypes[c] ?? widened[c] ?? source.declared?.[i] ?? sampled[i]);
  const inferred = columns.map((c, i) => !userTypes[c] && !source.declared?.[i]);
  return { columns, types, inferred };
}

export function planAppend(source: Source, sample: Batch[], r: Resource, userTypes: Record<string, TypeName>, wording?: Wording): Plan {
  const byId = new Map(r.fields.map((f) => [f.id, f]));
  let columns = source.columns;
  if (source.keyed) {
    const seen = new Set<string>();
    for (const batch of sample) for (const rec of batch.rows as Record<string, unknown>[]) for (const k of Object.keys(rec)) seen.add(k);
    columns = [...seen].filter((k) => byId.has(k));
  }
  const unknown = source.keyed ? [] : columns.filter((c) => !byId.has(c));
  if (unknown.length) throw new ImportError(`columns not in resource ${r.id}: "${unknown.join('", "')}" (its fields: ${r.fields.map((f) => f.id).join(", ")})`);
  for (const [f, t] of Object.entries(userTypes)) {
    if (byId.get(f)?.type !== t) throw new ImportError(`${optionName(wording, "types")}: field "${f}" of resource ${r.id} is ${byId.get(f)?.type ?? "not there"}; an append cannot change types`);
  }
  if (columns.length === 0) throw new ImportError(`the file has none of the fields of resource ${r.id}`);
  return { columns, types: columns.map((c) => byId.get(c)!.type), inferred: columns.map(() => false) };
}
