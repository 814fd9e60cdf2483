import { configDefaults, defineConfig } from "vitest/config";
import os from "node:os";
import path from "node:path";

// Four projects; `vitest run --project sqlite` (or postgres, sqlite-http, postgres-http) runs one.
// - sqlite: every test, on SQLite, but those that need PostgreSQL.
// - postgres: the suites that run on both engines (the API, security, fuzz (short) and fault
//   tests, the engine contract) again, on one throwaway PostgreSQL cluster for the whole run
//   (lib/test/pg-global-setup.ts), and the tests that need PostgreSQL: its engine's own, the
//   cluster's. Tests that only mean something on SQLite skip themselves there (`isPostgres`,
//   lib/test/api.ts). Without PostgreSQL's binaries the project says so and skips every test.
// - sqlite-http, postgres-http: the contract suites through `next start` (below).
const BOTH_ENGINES = ["lib/http/**/*.test.ts", "lib/test/faults.test.ts", "lib/datastore/engine-contract.test.ts"];
// Under lib/http but blind to the engine: the envelope's bytes, the peer's address.
const ENGINE_BLIND = ["lib/http/envelope.test.ts", "lib/http/peer.test.ts"];
const POSTGRES_ONLY = ["lib/datastore/postgres/**/*.test.ts", "lib/test/pg-cluster.test.ts"];
// The contract suites again through a real `next start` over HTTP (lib/test/over-http.ts), but
// contract-totals (it writes its rows through the engine itself) and contract-hostile (thousands
// of wrong values that the same validation refuses either way).
const CONTRACT = ["lib/http/contract-*.test.ts"];
const NOT_OVER_HTTP = ["lib/http/contract-totals.test.ts", "lib/http/contract-hostile.test.ts"];
const OVER_HTTP = { env: { CONTRACT_VIA: "next-start" }, globalSetup: ["lib/test/http-global-setup.ts"], setupFiles: ["lib/test/http-setup.ts"] };

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname), "server-only": path.resolve(import.meta.dirname, "lib/test/server-only-stub.ts") } },
  test: {
    environment: "node",
    pool: "forks",
    // Two files at a time at least (vitest's default is one fewer than the cores): much of a
    // suite's time goes to waiting on servers and databases, and one worker left a core idle.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    // Generous: on a loaded 2-core CI machine the heavy tests (a 150,000-row import on two
    // threads, fixtures built in beforeAll) ran past 30 s, and vitest's 10 s hook default, while
    // only slow. A test that hangs still fails, a minute later.
    testTimeout: 60000,
    hookTimeout: 60000,
    projects: [
      {
        extends: true,
        test: {
          name: "sqlite",
          include: ["lib/**/*.test.ts", "app/**/*.test.ts", "components/**/*.test.ts", "scripts/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...POSTGRES_ONLY],
          // SQLite even where the shell selects PostgreSQL.
          env: { DATASTORE_DATABASE_URL: "", DATASTORE_READ_DATABASE_URL: "" },
        },
      },
      {
        extends: true,
        test: {
          name: "postgres",
          include: [...BOTH_ENGINES, ...POSTGRES_ONLY],
          exclude: [...configDefaults.exclude, ...ENGINE_BLIND],
          globalSetup: ["lib/test/pg-global-setup.ts"],
          setupFiles: ["lib/test/pg-setup.ts"],
          env: { DATASTORE_READ_DATABASE_URL: "" },
          // Without PostgreSQL's binaries every test here is reported skipped, and none runs.
          runner: "lib/test/pg-runner.ts",
        },
      },
      {
        extends: true,
        test: {
          name: "sqlite-http",
          include: CONTRACT,
          exclude: [...configDefaults.exclude, ...NOT_OVER_HTTP],
          env: { DATASTORE_DATABASE_URL: "", DATASTORE_READ_DATABASE_URL: "", ...OVER_HTTP.env },
          globalSetup: OVER_HTTP.globalSetup,
          setupFiles: OVER_HTTP.setupFiles,
        },
      },
      {
        extends: true,
        test: {
          name: "postgres-http",
          include: CONTRACT,
          exclude: [...configDefaults.exclude, ...NOT_OVER_HTTP],
          globalSetup: ["lib/test/pg-global-setup.ts", ...OVER_HTTP.globalSetup],
          setupFiles: ["lib/test/pg-setup.ts", ...OVER_HTTP.setupFiles],
          env: { DATASTORE_READ_DATABASE_URL: "", ...OVER_HTTP.env },
          runner: "lib/test/pg-runner.ts",
        },
      },
    ],
  },
});
