// A read worker: its own read-only connection, answering search, value-count, histogram and
// size tasks, so reads use every core and a slow query never blocks the server's event loop.
// A task sent to be judged is answered only if its plan says it is cheap (read-cost.ts);
// otherwise it goes back to the pool to wait in the expensive lane.
import os from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { DatastoreError, toWire } from "../errors";
import { flatGroups } from "../aggregate-groups";
import { aggregate, BUDGET } from "./aggregate";
import * as catalog from "./catalog";
import { mustGetForRead, type Internal } from "./catalog";
import { atVersion } from "./history";
import { openReader, type Conn } from "./connection";
import { attachFor, GroupNotAttached } from "./groups";
import { toDatastoreError } from "./errors";
import { histogram } from "./histogram";
import { judge, observe, type Judged } from "./read-cost";
import { planSearch, type ReadPlan } from "./read-plan";
import { countRanges, countScansTable } from "./count";
import type { ReadTask } from "./read-pool";
import { countsApart, search, searchTotal } from "./search";
import { sizes } from "./statistics";
import { SUMMARY_LIMITS } from "../summary-plan";
import { summary } from "./summary";
import { valueCounts } from "./value-counts";

/** How far below the server thread reads run (0–19). */
const READ_NICENESS = 5;

// The limits come with each task (read-pool.ts), as the engine had them when it was sent.
const limits = { queryTimeoutMs: 0, countBudgetMs: 0 };
const file = (workerData as { file: string }).file;
// Below the server thread (on Linux a thread's own niceness): when reads and the server want
// the same core, the server answers first, so kept and cheap answers wait for no slow read.
try {
  os.setPriority(0, READ_NICENESS);
} catch {
  /* not allowed here: reads share the cores evenly */
}
const c = opened();
parentPort!.postMessage({ ready: true });

function opened(): Conn {
  try {
    return openReader(file, limits);
  } catch (e) {
    // A plain Error: SQLite's own loses its message on the way to the pool.
    throw new Error(`cannot open ${file}: ${(e as Error).message}`);
  }
}

const EXPENSIVE = Symbol("expensive");
/** Expensive, and its total a count another worker could read beside the page, whole (1) or
 *  (when it walks the table) in this many ranges of `_id`. */
class Apart {
  constructor(readonly ranges: number) {}
}

/** `plan`: a search's, as its judge built it. */
function execute(r: Internal, task: ReadTask, plan: ReadPlan | undefined): unknown {
  switch (task.op) {
    case "search":
      // With the state it was read in, for the server's page cache (../page-cache.ts).
      return { ...search(c, r, task.query, true, plan), readAt: catalog.state(r) };
    case "count": {
      // With the state it was read in (a total read in another state than its page is not
      // merged) and the time it ran (the ranges of one count share the query's limit).
      const started = performance.now();
      return { ...searchTotal(c, r, task.query, task.part, plan), readAt: catalog.state(r), ms: performance.now() - started };
    }
    case "aggregate":
      // A part's groups as one flat list (flatGroups), with the state it was read in and the
      // units it claimed spans of: parts read in different states, or over different units
      // (one reader planned before an index was added), are not merged.
      if (task.part) {
        const { groups, units } = aggregate(c, r, task.query, task.spec, BUDGET, task.part);
        return { groups: flatGroups(groups), readAt: `${catalog.state(r)}\0${units}` };
      }
      return aggregate(c, r, task.query, task.spec);
    case "valueCounts":
      return valueCounts(c, r, task.field, task.query, task.limit, task.budgetMs);
    case "histogram":
      return histogram(c, r, task.field, task.query, task.bins, task.budgetMs);
    case "summary":
      return task.part ? { tallied: summary(c, r, task.query, task.options, SUMMARY_LIMITS, task.part), readAt: catalog.state(r) } : summary(c, r, task.query, task.options);
    case "stats":
      return sizes(c, r);
  }
}

/** A verdict, or none when judging fails: the read then runs, and reports its own error. */
function verdict(r: Internal, task: ReadTask): Judged | null {
  try {
    // A count is judged as its search with no page.
    return judge(c, r, task.op === "count" ? { op: "search", query: { ...task.query, limit: 0 } } : task);
  } catch {
    return null;
  }
}

/** A task, its resource's group attached first (ATTACH fails inside the read transaction); once
 *  more if the resource moved to another group meanwhile (deleted and created again). */
function run(sent: ReadTask): unknown {
  for (let attempt = 0; ; attempt++) {
    attachFor(c, [sent.resourceId]);
    try {
      return runAttached(sent);
    } catch (e) {
      if (!(e instanceof GroupNotAttached) || attempt > 0) throw e;
    }
  }
}

function runAttached(sent: ReadTask): unknown {
  Object.assign(limits, sent.limits);
  // One read transaction: the catalog, the plan and the rows come from the same snapshot.
  return c.db.transaction(() => {
    const r = "query" in sent ? atVersion(c, mustGetForRead(c, sent.resourceId), sent.query) : mustGetForRead(c, sent.resourceId);
    // A total the server kept for this state: the page is read (and judged) without its count.
    const kept = sent.op === "search" && sent.kept?.at === catalog.state(r) ? sent.kept.total : undefined;
    const task = kept !== undefined && sent.op === "search" ? { ...sent, query: { ...sent.query, includeTotal: false } } : sent;
    const judged = task.judge ? verdict(r, task) : null;
    if (judged?.cost === "expensive") {
      if (task.op !== "search" || !task.apart) return EXPENSIVE;
      const plan = judged.plan ?? planSearch(c, r, task.query);
      if (!countsApart(c, r, task.query, plan)) return EXPENSIVE;
      return new Apart(countScansTable(c, r, plan, task.query) ? countRanges(r) : 1);
    }
    const started = performance.now();
    const result = execute(r, task, judged?.plan);
    // A plan can mislead: a shape judged cheap that runs slow waits with the expensive reads.
    if (judged) observe(c, judged.shape, performance.now() - started);
    return kept === undefined ? result : { ...(result as object), total: kept, totalEstimated: false };
  })();
}

parentPort!.on("message", (task: ReadTask) => {
  try {
    const result = run(task);
    if (result === EXPENSIVE || result instanceof Apart) {
      parentPort!.postMessage({ id: task.id, expensive: true, ...(result instanceof Apart && { apart: result.ranges }) });
      return;
    }
    const records = (result as { records?: Uint8Array }).records;
    // Encoded records move to the server thread without a copy.
    parentPort!.postMessage({ id: task.id, result }, records ? [records.buffer as ArrayBuffer] : []);
  } catch (e) {
    const mapped = toDatastoreError(e);
    // A busy store's Retry-After crosses too (toWire).
    const error = mapped instanceof DatastoreError ? { datastore: toWire(mapped) } : { message: (mapped as Error).message };
    if (!(mapped instanceof DatastoreError)) console.error("datastore read worker: internal error", e);
    parentPort!.postMessage({ id: task.id, error });
  }
});
