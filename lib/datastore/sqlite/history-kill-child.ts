// The child of history-kill.test.ts: upserts every row of resource "k" in DATASTORE_DB again
// and again, one batch a version, n = the batch's number, saying "batch N" after each commit,
// until it is killed.
import { openEngine } from "../open";

const ROWS = Number(process.env.KILL_ROWS ?? 2000);

async function main() {
  const engine = await openEngine({ file: process.env.DATASTORE_DB!, readWorkers: 0 });
  for (let batch = 1; ; batch++) {
    const records = Array.from({ length: ROWS }, (_, i) => ({ _id: i + 1, n: batch }));
    await engine.transaction((tx) => tx.write("k", records, "upsert"), ["k"]);
    process.stdout.write(`batch ${batch}\n`);
  }
}

void main();
