// `npm run backup -- FILE`: a consistent online copy of DATASTORE_DB while the server serves
// (SQLite's backup API copies a single snapshot; writers are not blocked for long).
import fs from "node:fs";
import path from "node:path";
import { config } from "../lib/config";
import { openReader } from "../lib/db/connection";

async function main() {
  const target = process.argv[2];
  if (!target) {
    console.error("usage: npm run backup -- FILE");
    process.exit(2);
  }
  if (!fs.existsSync(config.dbPath)) {
    console.error(`no database at ${config.dbPath}`);
    process.exit(1);
  }
  const out = path.resolve(target);
  if (fs.existsSync(out)) {
    console.error(`${out} exists; choose a new file`);
    process.exit(1);
  }
  const started = Date.now();
  const db = openReader(config.dbPath);
  // All pages in one step, inside one read transaction: a copy made step by step restarts
  // whenever the server writes in between, and under steady writes might never finish.
  await db.backup(`${out}.partial`, { progress: () => 0x7fffffff });
  db.close();
  fs.renameSync(`${out}.partial`, out); // a crash mid-copy never leaves a file that looks complete
  const check = openReader(out);
  const ok = check.pragma("integrity_check", { simple: true });
  check.close();
  console.log(`Backed up ${config.dbPath} to ${out} (${(fs.statSync(out).size / 1e6).toFixed(1)} MB, ${((Date.now() - started) / 1000).toFixed(1)} s, integrity ${ok}).`);
}

main().catch((e) => {
  console.error(`backup failed: ${(e as Error).message}`);
  process.exit(1);
});
