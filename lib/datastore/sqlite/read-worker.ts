// A read worker: its own read-only connection, answering search, value-count, histogram and
// size tasks, so reads use every core and a slow query never blocks the server's event loop.
import { parentPort, workerData } from "node:worker_threads";
import { DatastoreError } from "../errors";
import { mustGet } from "./catalog";
import { openReader } from "./connection";
import { toDatastoreError } from "./errors";
import { histogram } from "./histogram";
import type { ReadTask } from "./read-pool";
import { search } from "./search";
import { sizes } from "./statistics";
import { valueCounts } from "./value-counts";

const c = openReader((workerData as { file: string }).file);

function run(task: ReadTask): unknown {
  // One read transaction: the catalog and the rows come from the same snapshot.
  return c.db.transaction(() => {
    const r = mustGet(c, task.resourceId);
    switch (task.op) {
      case "search":
        return search(c, r, task.query);
      case "valueCounts":
        return valueCounts(c, r, task.field, task.query, task.limit);
      case "histogram":
        return histogram(c, r, task.field, task.query, task.bins);
      case "stats":
        return sizes(c, r);
    }
  })();
}

parentPort!.on("message", (task: ReadTask) => {
  try {
    const result = run(task) as { records?: Uint8Array };
    // Encoded records move to the server thread without a copy.
    parentPort!.postMessage({ id: task.id, result }, result.records ? [result.records.buffer as ArrayBuffer] : []);
  } catch (e) {
    const mapped = toDatastoreError(e);
    const error = mapped instanceof DatastoreError ? { kind: mapped.kind, details: mapped.details } : { message: (mapped as Error).message };
    if (!(mapped instanceof DatastoreError)) console.error("datastore read worker: internal error", e);
    parentPort!.postMessage({ id: task.id, error });
  }
});
