// What history.ts does on PostgreSQL alone (the engine contract checks what versions read): a
// past version read in `_id` order merges two index scans, the images get copies of the
// table's indexes (for the filters of a past read), and a store whose history kept
// updated rows' versions in "<table>_ver" (before the migration that moved them into the row's
// "_v") reads every version as before once migrated. The old layout is made from a store of
// today's by the reverse of the migration.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "../../config";
import type { SearchQuery } from "../engine";
import { findResource } from "./catalog";
import { openPostgresEngine, type PostgresEngine } from "./engine";
import { atVersion } from "./history";
import { SCHEMA_VERSION } from "./migrations";

const url = process.env.DATASTORE_DATABASE_URL;
const schema = `t_histmig_${randomBytes(4).toString("hex")}`;
const open = () => openPostgresEngine({ url: url!, schema, poolSize: 2, limits: config });
const query = (asOf: number, extra: Partial<SearchQuery> = {}): SearchQuery => ({
  filters: [],
  fts: [],
  columns: ["_id", "n", "s"],
  sort: [{ field: "_id", desc: false, nullsFirst: false }],
  distinct: false,
  limit: 100,
  offset: 0,
  includeTotal: true,
  asOf,
  ...extra,
});

describe.skipIf(!url)("PostgreSQL history", () => {
  let engine: PostgresEngine | undefined;
  let raw: pg.Pool;

  beforeAll(() => {
    raw = new pg.Pool({ connectionString: url, max: 1 });
  });
  afterAll(async () => {
    await engine?.close();
    await raw?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await raw?.end();
  });

  it("reads a past page in _id order from both tables' indexes, merged, with the filter in each: no sort of the version", async () => {
    engine = await open();
    await engine.createResource({ id: "p", name: "p", description: "", private: false }, [{ id: "n", type: "int4" }]);
    await engine.write("p", Array.from({ length: 20_000 }, (_, i) => ({ n: i % 100 })), "insert");
    const v = (await engine.historyState((await engine.getResource("p"))!)).version;
    for (let b = 0; b < 4; b++) await engine.write("p", Array.from({ length: 500 }, (_, i) => ({ _id: b * 5000 + i * 10 + 1, n: -1 })), "update");
    const client = await raw.connect();
    try {
      await client.query(`SET search_path TO "${schema}"`);
      const r = (await findResource(client, "p"))!;
      await client.query(`ANALYZE "${r.table}"; ANALYZE "${r.table}_hist"`);
      const past = await atVersion(client, r, query(v));
      const plan = async (sql: string) => (await client.query(`EXPLAIN (COSTS OFF) ${sql}`)).rows.map((row: Record<string, string>) => row["QUERY PLAN"]).join("\n");
      const page = await plan(`SELECT t."_id" FROM ${past.source} AS t ORDER BY t."_id" LIMIT 100 OFFSET 400`);
      expect(page).toMatch(/Merge Append/);
      expect(page).not.toMatch(/->\s+(Incremental )?Sort|Seq Scan/);
      const filtered = await plan(`SELECT t."_id" FROM ${past.source} AS t WHERE t."c1" = 7 ORDER BY t."_id" LIMIT 100`);
      // Each table scanned with the filter (which scan is the planner's to choose at this size).
      expect(filtered).not.toMatch(/Subquery Scan/);
      expect(filtered.match(/Filter: .*c1 = 7/g)).toHaveLength(2);
      expect(past.rowCount).toBe(20_000);
      expect((await client.query(`SELECT count(*)::int AS n FROM ${past.source} AS t WHERE t."c1" = 7`)).rows[0].n).toBe(200);
    } finally {
      client.release();
    }
    await engine.close();
    engine = undefined;
  });

  it("copies the table's btree indexes onto the images at each write that keeps them, and keeps those the table dropped", async () => {
    engine = await open();
    await engine.createResource({ id: "x", name: "x", description: "", private: false }, [{ id: "a", type: "int4" }, { id: "b", type: "text" }]);
    await engine.write("x", [{ a: 1, b: "one" }], "insert");
    await engine.setIndexes("x", [["a"], ["b", "a"]]);
    await engine.write("x", [{ _id: 1, a: 2 }], "update");
    const table = (await raw.query(`SELECT table_name FROM "${schema}".datastore_resources WHERE id = 'x'`)).rows[0].table_name as string;
    const onImages = async () =>
      (await raw.query(`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = $1 AND tablename = $2 AND indexname LIKE '%\_h' ORDER BY 1`, [schema, `${table}_hist`])).rows.map(
        (row: { indexname: string; indexdef: string }) => `${row.indexname.slice(table.length)}: ${row.indexdef.slice(row.indexdef.indexOf(" USING "))}`,
      );
    expect(await onImages()).toEqual(["_ix_c1_h:  USING btree (c1)", "_ix_c2_c1_h:  USING btree (c2, c1)"]);
    await engine.setIndexes("x", [["b", "a"]]);
    // A reader of the images holds its lock meanwhile (a long as_of read): the write that keeps
    // images neither drops the stale copy under it nor waits for it (a wait ends in "busy").
    const reader = await raw.connect();
    try {
      await reader.query(`BEGIN; SELECT count(*) FROM "${schema}"."${table}_hist"`);
      await engine.write("x", [{ _id: 1, a: 3 }], "update");
    } finally {
      await reader.query("ROLLBACK");
      reader.release();
    }
    expect(await onImages()).toEqual(["_ix_c1_h:  USING btree (c1)", "_ix_c2_c1_h:  USING btree (c2, c1)"]);
    await engine.close();
    engine = undefined;
  });

  it("migrates the versions into the rows and reads every version, its records' history and its changes as before", async () => {
    engine = await open();
    const e = engine;
    const versions: number[] = [];
    const mark = async () => versions.push((await e.historyState((await e.getResource("m"))!)).version);
    await e.createResource({ id: "m", name: "m", description: "", private: false }, [{ id: "n", type: "int4" }, { id: "s", type: "text" }]);
    await e.setPrimaryKey("m", ["n"]);
    await mark();
    await e.write("m", [1, 2, 3, 4, 5, 6].map((n) => ({ n, s: `a${n}` })), "insert");
    await mark();
    await e.write("m", [{ _id: 2, s: "b2" }, { _id: 3, s: "b3" }], "update");
    await mark();
    await e.deleteRows("m", [{ op: "eq", field: "n", value: 4 }]);
    await mark();
    // Row 7 inserted and updated in one version: no image, its version stays its insert's.
    await e.write("m", [{ n: 2, s: "c2" }, { n: 7, s: "a7" }, { n: 7, s: "b7" }], "upsert");
    await mark();
    await e.write("m", [{ _id: 5, s: "b5" }], "update");
    await mark();

    const answers = async (en: PostgresEngine) => {
      const r = (await en.getResource("m"))!;
      const out: unknown[] = [];
      for (const v of versions) {
        out.push(await en.search(r, query(v)));
        out.push(await en.search(r, query(v, { filters: [{ op: "eq", field: "s", value: "a2" }] })));
        out.push(await en.search(r, query(v, { sort: [{ field: "s", desc: true, nullsFirst: false }], limit: 2, offset: 1 })));
        out.push(await en.changes(r, v, null, 100));
      }
      for (let id = 1; id <= 7; id++) out.push(await en.rowImages(r, { id }));
      return out;
    };
    const before = await answers(e);
    // The answers are the history, not empty pages: v2 still reads a2, and row 2 has three images.
    expect(JSON.stringify(before)).toContain('"a2"');
    expect((await e.rowImages((await e.getResource("m"))!, { id: 2 }))?.images).toHaveLength(3);
    await e.close();
    engine = undefined;

    // The layout before: versions in "<table>_ver", no "_v", no deletes' index, one schema version down.
    const s = `"${schema}"`;
    const table = (await raw.query(`SELECT table_name FROM ${s}.datastore_resources WHERE id = 'm'`)).rows[0].table_name as string;
    const t = `${s}."${table}"`;
    await raw.query(
      `CREATE TABLE ${s}."${table}_ver" ("_id" bigint PRIMARY KEY, v bigint NOT NULL);
       CREATE INDEX "${table}_ver_v" ON ${s}."${table}_ver" (v);
       INSERT INTO ${s}."${table}_ver" SELECT "_id", "_v" FROM ${t} WHERE "_v" > 0;
       ALTER TABLE ${t} DROP COLUMN "_v";
       DROP INDEX ${s}."${table}_hist_gone";
       UPDATE ${s}.datastore_schema_version SET version = ${SCHEMA_VERSION - 1}`,
    );
    expect((await raw.query(`SELECT count(*)::int AS n FROM ${s}."${table}_ver"`)).rows[0].n).toBe(3);

    engine = await open();
    expect((await raw.query(`SELECT version FROM ${s}.datastore_schema_version`)).rows).toEqual([{ version: SCHEMA_VERSION }]);
    expect((await raw.query(`SELECT to_regclass($1) AS ver`, [`${s}."${table}_ver"`])).rows[0].ver).toBeNull();
    expect((await raw.query(`SELECT "_id", "_v" FROM ${t} WHERE "_v" > 0 ORDER BY "_id"`)).rows.map((row) => [Number(row._id), Number(row._v)])).toEqual([
      [2, versions[4]],
      [3, versions[2]],
      [5, versions[5]],
    ]);
    expect(await answers(engine)).toEqual(before);

    // Writes keep history on the migrated table.
    await engine.write("m", [{ _id: 3, s: "c3" }], "update");
    const r = (await engine.getResource("m"))!;
    expect((await engine.search(r, query(versions[5], { filters: [{ op: "eq", field: "_id", value: 3 }] }))).rows).toEqual([[3, 3, "b3"]]);
    expect((await engine.search(r, query(versions[5] + 1, { filters: [{ op: "eq", field: "_id", value: 3 }] }))).rows).toEqual([[3, 3, "c3"]]);
    expect((await engine.rowImages(r, { id: 3 }))?.images.map((i) => [i.from, i.to, i.record.s])).toEqual([
      [versions[1], versions[2], "a3"],
      [versions[2], versions[5] + 1, "b3"],
      [versions[5] + 1, null, "c3"],
    ]);
  });
});
