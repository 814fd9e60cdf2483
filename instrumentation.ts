// Runs once when the Next.js server starts: opens (and migrates) the database, and loads
// the sample data into an empty one, so the first request never waits for it.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { getDb } = await import("./lib/db/connection");
  const { ensureSampleData } = await import("./lib/sample-data/seed");
  try {
    ensureSampleData(getDb());
  } catch (e) {
    console.error(`datastore: cannot open the database at ${process.env.DATASTORE_DB || "data/datastore.db"}: ${(e as Error).message}`);
    process.exit(1);
  }
}
