// The postgres project's setup file, run before each test file: the engine is chosen by
// DATASTORE_DATABASE_URL, pointed here at the run's cluster (lib/test/pg-global-setup.ts), with
// a schema of the file's own; freshDb() (lib/test/api.ts) gives each suite a new schema.
import { randomBytes } from "node:crypto";
import { inject } from "vitest";

const pg = inject("pg");
if (pg) {
  process.env.DATASTORE_DATABASE_URL = pg.url;
  process.env.DATASTORE_TEST_PG_SUPER_URL = pg.superUrl;
  process.env.DATASTORE_PG_SCHEMA = `f_${randomBytes(6).toString("hex")}`;
}
