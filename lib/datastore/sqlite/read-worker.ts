// A read worker: its own read-only connection, answering search and value-count tasks so
// reads use every core and a slow query never blocks the server's event loop.
import { parentPort, workerData } from "node:worker_threads";
import { openReader } from "../../db/connection";
import { DatastoreError } from "../errors";
import { SqliteEngine } from "./engine";
import type { ReadTask } from "./read-pool";

const engine = new SqliteEngine(openReader((workerData as { file: string }).file));

function run(task: ReadTask): unknown {
  // One read transaction: the catalog and the rows come from the same snapshot.
  return engine.db.transaction(() => {
    const r = engine.getResource(task.resourceId);
    if (!r) throw DatastoreError.notFound(`Resource "${task.resourceId}" was not found.`);
    if (task.op === "stats") return engine.statsNow(r);
    return task.op === "search" ? engine.searchNow(r, task.query) : engine.valueCountsNow(r, task.field, task.query, task.limit);
  })();
}

parentPort!.on("message", (task: ReadTask) => {
  try {
    const result = run(task) as { records?: Uint8Array };
    // Encoded records move to the server thread without a copy.
    parentPort!.postMessage({ id: task.id, result }, result.records ? [result.records.buffer as ArrayBuffer] : []);
  } catch (e) {
    const error =
      e instanceof DatastoreError
        ? { kind: e.kind, details: e.details }
        : { message: (e as Error).message, code: (e as { code?: string }).code };
    parentPort!.postMessage({ id: task.id, error });
  }
});
