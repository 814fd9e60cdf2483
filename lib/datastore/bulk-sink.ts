// The worker's end of an off-thread bulk load (engine.ts OffThreadLoad): the spec an engine gave
// out in, a BulkSink out. A worker imports this and nothing else of the datastore, so it loads
// only the engine it writes for.
import type { BulkSink, BulkSinkSpec } from "./engine";

export async function openBulkSink(spec: BulkSinkSpec): Promise<BulkSink> {
  switch (spec.engine) {
    case "sqlite":
      return (await import("./sqlite/bulk-sink")).openSqliteSink(spec);
  }
}
