// Server start-up: open (and migrate) the database and load sample data into an empty one,
// so the first request never waits. A database that cannot be opened stops the server with
// a clear message instead of failing every request.
import { config } from "./config";
import { getDb } from "./db/connection";
import { ensureSampleData } from "./sample-data/seed";

try {
  ensureSampleData(getDb());
} catch (e) {
  console.error(`datastore: cannot open the database at ${config.dbPath}: ${(e as Error).message}`);
  process.exit(1);
}
