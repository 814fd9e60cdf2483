// The upload's import on a thread of its own (import-thread.ts starts it): the thread opens its
// own engine on the server's store, as `npm run import` is a process of its own, so the server's
// engine keeps serving while the import's transaction is open. Its last step, inside that
// transaction, takes the upload as imported: in the store where it keeps uploads' imports
// (PostgreSQL, so every app server sees it at the commit), else at the gate it shares with the
// server's thread (local-imports.ts).
import { parentPort, workerData } from "node:worker_threads";
import type { DatastoreEngine } from "../datastore/engine";
import { openEngine } from "../datastore/open";
import { ImportInterrupted, importFile } from "../import/importer";
import { toThreadError, type FromImportThread, type ImportJob } from "./import-thread";
import { decideCommit } from "./local-imports";

const job = workerData as ImportJob;
const abort = new AbortController();
parentPort!.on("message", (m: { kind: "abort" }) => {
  if (m.kind === "abort") abort.abort();
});
const post = (m: FromImportThread) => parentPort!.postMessage(m);

async function mayCommit(tx: DatastoreEngine, resourceId: string): Promise<void> {
  const { id, claim, gate } = job.upload;
  const ok = tx.uploadImports ? await tx.uploadImports.finish(id, claim, resourceId) : decideCommit(gate!);
  if (!ok) throw new ImportInterrupted(); // cancelled: the transaction rolls back
}

async function main(): Promise<void> {
  // No read workers: the import reads only inside its own transaction.
  const engine = await openEngine({ ...job.store, readWorkers: 0 });
  try {
    const result = await importFile(engine, job.file, {
      ...job.options,
      signal: abort.signal,
      onProgress: (p) => post({ kind: "progress", progress: p }),
      beforeCommit: mayCommit,
    });
    post({ kind: "done", result });
  } finally {
    await engine.close();
  }
}

main().catch((e) => post({ kind: "failed", error: toThreadError(e) }));
