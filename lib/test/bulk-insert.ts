// Large fixtures for tests about reads: rows through the engine's bulk load (the import path),
// in one transaction. engine.write validates and writes row by row, which took most of the time
// of some files (and their beforeAll past vitest's hook timeout on a loaded machine).
import type { DatastoreEngine } from "../datastore/engine";

/** Inserts `records` into resource `id` as one bulk load; a field a record lacks is NULL. */
export async function bulkInsert(engine: DatastoreEngine, id: string, records: Record<string, unknown>[]): Promise<void> {
  const names = new Set<string>();
  for (const r of records) for (const k of Object.keys(r)) names.add(k);
  const fields = [...names];
  await engine.transaction(async (tx) => {
    const load = await tx.bulkLoad(id, fields);
    await load.append(records.map((r) => fields.map((f) => r[f] ?? null)));
    await load.finish();
  }, [id]);
}
