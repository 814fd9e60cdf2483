// DATASTORE_READ_DATABASE_URL naming something other than a replica of the primary (issue 24's
// review): another database on the same cluster, or an independent cluster, each holding a
// resource of the same id and schema at a later version, as a stale copy or a mistyped URL
// would. Unchecked, reads go there and fail (or answer its rows); the start-up check says so in one line
// and the primary serves every read. An unreachable replica still stops the start.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { config } from "../../config";
import type { SearchQuery } from "../engine";
import { DatastoreUnavailable } from "../errors";
import { pgUnavailableReason, startCluster, type PgCluster } from "../../test/pg-cluster";
import { createDatabase, withDatabase } from "../../test/pg-support";
import { openPostgresEngine } from "./engine";

const url = process.env.DATASTORE_DATABASE_URL;
const unavailable = url ? pgUnavailableReason() : "no DATASTORE_DATABASE_URL";
const schema = `t_replica_${randomBytes(4).toString("hex")}`;
const all: SearchQuery = { filters: [], fts: [], columns: ["v"], sort: [{ field: "_id", desc: false, nullsFirst: false }], distinct: false, limit: 10, offset: 0, includeTotal: false };

/** Resource "r" in `schema` at `at`, holding one row `v`, written `writes` times over. */
async function seed(at: string, v: string, writes: number): Promise<void> {
  const engine = await openPostgresEngine({ url: at, schema, poolSize: 2, limits: config });
  try {
    await engine.createResource({ id: "r", name: "r", description: "", private: false }, [{ id: "v", type: "text" }]);
    for (let i = 0; i < writes; i++) {
      await engine.deleteRows("r", []);
      await engine.write("r", [{ v }], "insert");
    }
  } finally {
    await engine.close();
  }
}

describe.skipIf(!!unavailable)("a read URL that is not a replica of the primary", () => {
  let other: PgCluster;
  let otherDatabase: string;

  beforeAll(async () => {
    other = await startCluster();
    otherDatabase = withDatabase(url!, await createDatabase("not_replica"));
    await seed(url!, "primary", 1);
    await seed(otherDatabase, "another database", 5);
    await seed(other.url(), "another cluster", 5);
  }, 120_000);
  afterAll(async () => {
    await other?.stop();
  });

  for (const [what, readUrl] of [
    ["another database of the same cluster", () => otherDatabase],
    ["an independent cluster", () => other.url()],
  ] as const) {
    it(`${what}: said once at start, and the primary serves the reads`, async () => {
      const engine = await openPostgresEngine({ url: url!, readUrl: readUrl(), schema, poolSize: 2, limits: config });
      const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
      try {
        const read = async () => (await engine.search((await engine.getResource("r"))!, all)).rows;
        // What an unchecked read URL does: the read fails there (the other store names its
        // tables differently) or answers the other store's rows.
        expect(await read().catch((e: unknown) => String(e))).not.toEqual([["primary"]]);
        await engine.check("quick");
        expect(logged.mock.calls.map((c) => String(c[0]))).toEqual([expect.stringMatching(/^datastore: DATASTORE_READ_DATABASE_URL \(.*\) is not a replica of DATASTORE_DATABASE_URL \(.*\): .*every read goes to the primary$/)]);
        expect(await read()).toEqual([["primary"]]);
        expect(await read()).toEqual([["primary"]]);
      } finally {
        logged.mockRestore();
        await engine.close();
      }
    });
  }

  it("an unreachable replica still stops the start, naming DATASTORE_READ_DATABASE_URL", async () => {
    const engine = await openPostgresEngine({ url: url!, readUrl: "postgresql://app@127.0.0.1:1/app", schema, poolSize: 2, limits: config });
    try {
      const err = await engine.check("quick").catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DatastoreUnavailable);
      expect((err as Error).message).toMatch(/cannot connect to PostgreSQL at app@127\.0\.0\.1:1\/app .*DATASTORE_READ_DATABASE_URL/);
    } finally {
      await engine.close();
    }
  });
});
