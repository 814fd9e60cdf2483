// The start-up check's page scan (health.ts checkPages) on a thread with a read-only connection
// of its own: it reads the whole file, seconds or more on a large store, so the server serves
// meanwhile (health.ts scanPages starts it). Answers with what it found wrong, if anything.
import { parentPort, workerData } from "node:worker_threads";
import { openReader } from "./connection";
import { checkPages, explainOpenError } from "./health";

const { file, level } = workerData as { file: string; level: "quick" | "full" };
let problem: string | undefined;
try {
  const c = openReader(file, { queryTimeoutMs: Infinity, countBudgetMs: Infinity });
  try {
    checkPages(c.db, file, level);
  } finally {
    c.db.close();
  }
} catch (e) {
  problem = explainOpenError(e, file);
}
parentPort!.postMessage({ problem });
