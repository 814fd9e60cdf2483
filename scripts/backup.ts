// `npm run backup -- FILE`: a consistent online copy of the datastore while the server serves.
// SQLite: the engine copies one snapshot of DATASTORE_DB and checks the copy. PostgreSQL: the
// engine runs pg_dump of its schema (the database's own tool), or says how to.
import fs from "node:fs";
import path from "node:path";
import { config } from "../lib/config";
import { openEngine } from "../lib/datastore/open";

async function main() {
  const target = process.argv[2];
  if (!target) {
    console.error("usage: npm run backup -- FILE");
    process.exit(2);
  }
  if (!config.databaseUrl && !fs.existsSync(config.dbPath)) {
    console.error(`no database at ${config.dbPath}`);
    process.exit(1);
  }
  const out = path.resolve(target);
  if (fs.existsSync(out)) {
    console.error(`${out} exists; choose a new file`);
    process.exit(1);
  }
  const engine = await openEngine({ readWorkers: 0 });
  try {
    console.log(await engine.backup(out));
  } finally {
    await engine.close();
  }
}

main().catch((e) => {
  console.error(`backup failed: ${(e as Error).message}`);
  process.exit(1);
});
