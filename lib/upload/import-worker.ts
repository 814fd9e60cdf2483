// The upload's import on a thread of its own (import-thread.ts starts it): the thread opens its
// own engine on the server's store, as `npm run import` is a process of its own, so the server's
// engine keeps serving while the import's transaction is open.
import { parentPort, workerData } from "node:worker_threads";
import { openEngine } from "../datastore/open";
import { importFile } from "../import/importer";
import { toThreadError, type ImportJob, type FromImportThread } from "./import-thread";

const job = workerData as ImportJob;
const abort = new AbortController();
parentPort!.on("message", (m: { kind: "abort" }) => {
  if (m.kind === "abort") abort.abort();
});
const post = (m: FromImportThread) => parentPort!.postMessage(m);

async function main(): Promise<void> {
  // No read workers: the import reads only inside its own transaction.
  const engine = await openEngine({ ...job.store, readWorkers: 0 });
  try {
    const result = await importFile(engine, job.file, {
      ...job.options,
      signal: abort.signal,
      onProgress: (p) => post({ kind: "progress", progress: p }),
    });
    post({ kind: "done", result });
  } finally {
    await engine.close();
  }
}

main().catch((e) => post({ kind: "failed", error: toThreadError(e) }));
