import { configDefaults, defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
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
// Files that change their process for good (a hook on every HTTP server it makes, installed
// once): each runs in a process of its own (the `own-process` project), not beside other files.
const PROCESS_WIDE = ["lib/http/peer.test.ts", "lib/server/next-admission.test.ts"];
const POSTGRES_ONLY = ["lib/datastore/postgres/**/*.test.ts", "lib/test/pg-cluster.test.ts"];
// The contract suites again through a real `next start` over HTTP (lib/test/over-http.ts), but
// contract-totals (it writes its rows through the engine itself) and contract-hostile (thousands
// of wrong values that the same validation refuses either way).
const CONTRACT = ["lib/http/contract-*.test.ts"];
const NOT_OVER_HTTP = ["lib/http/contract-totals.test.ts", "lib/http/contract-hostile.test.ts"];
const OVER_HTTP = { env: { CONTRACT_VIA: "next-start" }, globalSetup: ["lib/test/http-global-setup.ts"], setupFiles: ["lib/test/http-setup.ts"] };

// The order vitest starts test files in. Its own order, on a clean clone (no durations cached),
// is project by project and larger files first, so a long file of the last project (SQLite's
// faults) started minutes into the run and finished alone while the other worker sat idle. The
// files below run longest (test-reports/vitest.json of a full `npm test`); they start first,
// whatever their project, and the short files fill in around them.
/** [project, file], longest first. A file missing here only starts later. */
const SLOW_FIRST: [string, string][] = [
  ["sqlite", "lib/test/faults.test.ts"],
  ["postgres", "lib/http/contract-hostile.test.ts"],
  ["postgres", "lib/http/fuzz.test.ts"],
  ["postgres", "lib/datastore/postgres/upload-scale-out.test.ts"],
  ["postgres", "lib/http/upload.test.ts"],
  ["postgres", "lib/http/upload-cancel.test.ts"],
  ["sqlite", "lib/test/next-start.test.ts"],
  ["postgres", "lib/http/dump-formats.test.ts"],
  ["postgres", "lib/datastore/engine-contract.test.ts"],
  ["sqlite", "lib/import/off-thread.test.ts"],
  ["postgres", "lib/test/faults.test.ts"],
  ["sqlite", "lib/datastore/engine-contract.test.ts"],
  ["sqlite", "lib/http/upload.test.ts"],
];

class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const i = SLOW_FIRST.findIndex(([project, file]) => spec.project.name === project && spec.moduleId.endsWith(`/${file}`));
      return i < 0 ? SLOW_FIRST.length : i;
    };
    // Array.prototype.sort is stable: the rest keep vitest's own order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname), "server-only": path.resolve(import.meta.dirname, "lib/test/server-only-stub.ts") } },
  test: {
    environment: "node",
    pool: "forks",
    // A worker process runs file after file of its project, its modules loaded once: isolated,
    // each of the 243 files loaded the app's modules in a new process again, about 1.6 s of CPU
    // a file, most of a small file's time. Each file still opens a fresh store (freshDb, the
    // postgres project's schema a file), and sets back what it changes in process.env.
    isolate: false,
    sequence: { sequencer: SlowFirstSequencer },
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
          exclude: [...configDefaults.exclude, ...POSTGRES_ONLY, ...PROCESS_WIDE],
          // SQLite even where the shell selects PostgreSQL.
          env: { DATASTORE_DATABASE_URL: "", DATASTORE_READ_DATABASE_URL: "" },
        },
      },
      {
        extends: true,
        test: {
          name: "own-process",
          include: PROCESS_WIDE,
          isolate: true,
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
