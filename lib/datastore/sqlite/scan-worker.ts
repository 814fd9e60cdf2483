// The start-up check's page scan (health.ts checkPages) on a thread with a read-only connection
// of its own: it reads the whole file and each group file (groups.ts), seconds or more on a
// large store, so the server serves meanwhile (health.ts scanPages starts it). Answers with
// what it found wrong, if anything.
import { parentPort, workerData } from "node:worker_threads";
import { openReader } from "./connection";
import { groupFiles } from "./groups";
import { checkPages, explainOpenError } from "./health";

const { file, level } = workerData as { file: string; level: "quick" | "full" };
let problem: string | undefined;
try {
  for (const one of [file, ...groupFiles(file).map((g) => g.file)]) {
    const c = openReader(one, { queryTimeoutMs: Infinity, countBudgetMs: Infinity });
    try {
      checkPages(c.db, one, level);
    } catch (e) {
      problem = explainOpenError(e, one);
      break;
    } finally {
      c.db.close();
    }
  }
} catch (e) {
  problem = explainOpenError(e, file);
}
parentPort!.postMessage({ problem });
