// `npm run seed`: loads the sample data into DATASTORE_DB now (the server does it on first start).
import { TokenStore } from "../lib/auth/tokens";
import { DatastoreError } from "../lib/datastore/errors";
import { openEngine } from "../lib/datastore/open";
import { ensureSampleData } from "../lib/sample-data/seed";

async function main(): Promise<void> {
  const engine = await openEngine({ readWorkers: 0 });
  try {
    await ensureSampleData(engine, new TokenStore(engine.tokens));
  } finally {
    await engine.close();
  }
}

main().catch((e) => {
  console.error(`seed failed: ${e instanceof DatastoreError ? Object.values(e.details).flat().join("; ") : ((e as Error)?.message ?? String(e))}`);
  process.exit(1);
});
