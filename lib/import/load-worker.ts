// The load worker (off-thread.ts): reads the file from its start as the main thread's reader
// did, shapes each batch (rows.ts) and writes it through the engine's BulkSink, sealing a part
// at each of PART_ENDS of the file for the main thread to take. Every failure goes back as a
// message; the main thread decides what it means for the import.
import { parentPort, workerData } from "node:worker_threads";
import { openBulkSink } from "../datastore/bulk-sink";
import type { BulkSink } from "../datastore/engine";
import { toWorkerError, type FromWorker, type WorkerJob } from "./off-thread";
import { openSource } from "./open";
import { renamed } from "./rename";
import { RowShaper, withoutIds } from "./rows";
import type { Source } from "./source";

/**
 * Where parts end, as fractions of the file: 8 parts, as many as the SQLite engine takes
 * (bulk-load.ts MAX_PARTS). The first is small so the main thread starts early; the last ones
 * are smaller than the middle ones so it has little left at the end.
 */
const PART_ENDS = [0.05, 0.19, 0.34, 0.49, 0.64, 0.78, 0.9];
/** Rows below which a part is not worth its own file. */
const MIN_PART_ROWS = 20_000;
const PROGRESS_MS = 100;

const job = workerData as WorkerJob;
const post = (m: FromWorker) => parentPort!.postMessage(m);
// Listening keeps the worker alive after its last message: the main thread ends it.
parentPort!.on("message", () => undefined);

async function run(): Promise<void> {
  let source: Source | null = null;
  let sink: BulkSink | null = null;
  try {
    // The sink first: a reader's stream starts as it opens, and is read from the next step on.
    sink = await openBulkSink(job.sink);
    source = renamed(
      withoutIds(await openSource(job.file, job.read), (message) => post({ kind: "notice", message })),
      job.names,
      job.rules.wording,
    );
    const shaper = new RowShaper(job.plan, source, job.rules, true);
    let rows = 0;
    let inPart = 0;
    let ends = 0;
    let reported = 0;
    for await (const batch of source.batches()) {
      const shaped = shaper.rows(batch);
      try {
        sink.append(shaped);
      } catch (e) {
        throw shaper.failure(e, shaped, batch);
      }
      rows += shaped.length;
      inPart += shaped.length;
      const { done, total } = source.progress();
      const fraction = total ? Math.min(1, done / total) : 0;
      if (ends < PART_ENDS.length && fraction >= PART_ENDS[ends] && inPart >= MIN_PART_ROWS) {
        while (ends < PART_ENDS.length && fraction >= PART_ENDS[ends]) ends++;
        const part = sink.seal();
        if (part) post({ kind: "part", part });
        inPart = 0;
      }
      if (performance.now() - reported >= PROGRESS_MS) {
        reported = performance.now();
        post({ kind: "progress", rows, fraction });
      }
    }
    const last = sink.seal();
    if (last) post({ kind: "part", part: last });
    post({ kind: "progress", rows, fraction: 1 });
    post({ kind: "done", rows });
  } finally {
    sink?.close();
    await source?.close();
  }
}

run().catch((e) => post({ kind: "failed", error: toWorkerError(e) }));
