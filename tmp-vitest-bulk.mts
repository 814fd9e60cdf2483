// helper "bulk": temporary config to run lib/import/importer.test.ts on PostgreSQL (deleted after)
import { defineConfig } from "vitest/config";
import path from "node:path";
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname), "server-only": path.resolve(import.meta.dirname, "lib/test/server-only-stub.ts") } },
  test: { environment: "node", pool: "forks", testTimeout: 30000, include: ["lib/import/importer.test.ts"], globalSetup: ["lib/test/pg-global-setup.ts"], setupFiles: ["lib/test/pg-setup.ts"], env: { DATASTORE_READ_DATABASE_URL: "" } },
});
