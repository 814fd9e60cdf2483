// Server start-up: open the datastore, check it (not corrupt, writable), and load sample data
// into an empty one, so the first request never waits. A datastore that cannot be used stops
// the server once with a clear message instead of failing every request. The part of the check
// that reads the whole store (engine.scan) goes on while the server serves, and stops it if it
// finds the store corrupt.
import { config } from "./config";
import { getDatastore } from "./datastore";
import { DatastoreError, DatastoreUnavailable } from "./datastore/errors";
import { ensureSampleData } from "./sample-data/seed";

function unusable(e: unknown, serving: boolean): never {
  const detail = e instanceof DatastoreError ? Object.values(e.details).flat().join("; ") : ((e as Error)?.message ?? String(e));
  const why = e instanceof DatastoreUnavailable ? e.message : `cannot use the database at ${config.storeName}: ${detail}`;
  console.error(`datastore: ${why}`);
  console.error(`datastore: ${serving ? "stopping" : "not starting"}; fix the database (or DATASTORE_DB / DATASTORE_DATABASE_URL) and start again.`);
  process.exit(1);
}

/** Opens and checks the process-wide datastore; exits the process when it cannot be used. */
export async function startDatastore(): Promise<void> {
  try {
    // Opening starts the read workers now, not on the first visitor's request.
    const { engine, tokens } = await getDatastore();
    await engine.check(config.startupCheck);
    await ensureSampleData(engine, tokens);
    engine.scan(config.startupCheck).catch((e) => unusable(e, true));
  } catch (e) {
    unusable(e, false);
  }
}
