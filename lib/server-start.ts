// Server start-up: open (and migrate) the database, check it (not corrupt, writable), and load
// sample data into an empty one, so the first request never waits. A database that cannot be
// used stops the server once with a clear message instead of failing every request.
import { config } from "./config";
import { getDatastore } from "./datastore";
import { getDb } from "./db/connection";
import { checkDatabase, explainOpenError } from "./db/health";
import { ensureSampleData } from "./sample-data/seed";

try {
  const db = getDb();
  checkDatabase(db, config.dbPath, config.startupCheck);
  ensureSampleData(db);
  getDatastore(); // the read workers start now, not on the first visitor's request
} catch (e) {
  console.error(`datastore: ${explainOpenError(e, config.dbPath)}`);
  console.error("datastore: not starting; fix the database (or DATASTORE_DB) and start again.");
  process.exit(1);
}
