// The PostgreSQL engine's own parts against a real server (DATASTORE_DATABASE_URL; skipped
// without one): opening and migrating, the catalog, writes with CKAN's key rules, transactions
// and savepoints, the full-text trigger, errors. Each run works in a schema of its own.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "../../config";
import type { DatastoreEngine, Resource, SearchQuery } from "../engine";
import { DatastoreError, DatastoreUnavailable } from "../errors";
import { openPostgresEngine, type PostgresEngine } from "./engine";
import { SCHEMA_VERSION } from "./migrations";

const url = process.env.DATASTORE_DATABASE_URL;
const schema = `t_core_${randomBytes(4).toString("hex")}`;
const meta = (id: string) => ({ id, name: id, description: "", private: false });
const all = (columns: string[]): SearchQuery => ({ filters: [], fts: [], columns, sort: [{ field: "_id", desc: false, nullsFirst: false }], distinct: false, limit: 100, offset: 0, includeTotal: true });

async function caught(p: Promise<unknown>): Promise<DatastoreError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof DatastoreError) return e;
    throw e;
  }
  throw new Error("expected a DatastoreError");
}

describe.skipIf(!url)("PostgreSQL engine", () => {
  let engine: PostgresEngine;
  let raw: pg.Pool;

  beforeAll(async () => {
    engine = await openPostgresEngine({ url: url!, schema, poolSize: 4, limits: config });
    raw = new pg.Pool({ connectionString: url, max: 2 });
  });
  afterAll(async () => {
    await engine?.close();
    await raw?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await raw?.end();
  });

  const rows = async (id: string, columns: string[]) => (await engine.search((await engine.getResource(id))!, all(columns))).rows;

  it("migrates once when two servers open the same schema together, and checks it", async () => {
    const [a, b] = await Promise.all([0, 1].map(() => openPostgresEngine({ url: url!, schema, poolSize: 2, limits: config })));
    await a.check("full");
    await Promise.all([a.close(), b.close()]);
    const { rows: v } = await raw.query(`SELECT version FROM "${schema}".datastore_schema_version`);
    expect(v).toEqual([{ version: SCHEMA_VERSION }]);
  });

  it("refuses a schema newer than the build", async () => {
    const other = `t_core_${randomBytes(4).toString("hex")}`;
    const e = await openPostgresEngine({ url: url!, schema: other, poolSize: 2, limits: config });
    await e.close();
    await raw.query(`UPDATE "${other}".datastore_schema_version SET version = 99`);
    await expect(openPostgresEngine({ url: url!, schema: other, poolSize: 2, limits: config })).rejects.toThrow(/version 99, newer/);
    await raw.query(`DROP SCHEMA "${other}" CASCADE`);
  });

  it("says where it could not connect, without the password", async () => {
    const err = await openPostgresEngine({ url: "postgresql://app:s3cret@127.0.0.1:1/app", schema, poolSize: 2, limits: config }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DatastoreUnavailable);
    expect((err as Error).message).toMatch(/cannot connect to PostgreSQL at app@127\.0\.0\.1:1\/app/);
    expect((err as Error).message).not.toContain("s3cret");
  });

  it("creates, writes and reads back every type", async () => {
    const fields = [
      { id: "t", type: "text" as const, info: { z: 1, a: 2 } },
      { id: "i", type: "int4" as const },
      { id: "b", type: "int8" as const },
      { id: "f", type: "float8" as const },
      { id: "n", type: "numeric" as const },
      { id: "ok", type: "bool" as const },
      { id: "d", type: "date" as const },
      { id: "ts", type: "timestamp" as const },
      { id: "tm", type: "time" as const },
      { id: "j", type: "json" as const },
      { id: "arr", type: "_text" as const },
      { id: "ia", type: "_int4" as const },
    ];
    const r = await engine.createResource(meta("types"), fields);
    expect(r.fields[0]).toEqual({ id: "t", type: "text", info: { z: 1, a: 2 } });
    expect(Object.keys(r.fields[0].info!)).toEqual(["z", "a"]);
    const record = { t: "hello", i: "42", b: 9007199254740991, f: 1.5, n: "2.25", ok: "yes", d: "2024-02-29", ts: "2024-01-02 03:04:05", tm: "12:30", j: { b: [1, { x: null }], a: "s" }, arr: ["a b", "c,d", 'e"f'], ia: [1, null, 3] };
    await engine.write("types", [record, {}], "insert");
    const got = await rows("types", ["_id", ...fields.map((f) => f.id)]);
    expect(got).toEqual([
      [1, "hello", 42, 9007199254740991, 1.5, 2.25, true, "2024-02-29", "2024-01-02T03:04:05", "12:30:00", { b: [1, { x: null }], a: "s" }, ["a b", "c,d", 'e"f'], [1, null, 3]],
      [2, null, null, null, null, null, null, null, null, null, null, null, null],
    ]);
    expect((await engine.getResource("types"))!.rowCount).toBe(2);
  });

  it("answers a bad value with the row and CKAN's message, and writes nothing", async () => {
    await engine.createResource(meta("bad"), [{ id: "n", type: "int4" }]);
    const e = await caught(engine.write("bad", [{ n: 1 }, { n: 2 }, { n: "x" }], "insert"));
    expect(e.details).toEqual({ records: ['invalid input syntax for type integer: "x"'], records_row: 2 });
    const range = await caught(engine.write("bad", [{ n: 1 }, { n: 99999999999 }], "insert"));
    expect(range.details.records_row).toBe(1);
    const extra = await caught(engine.write("bad", [{ n: 1 }, { m: 2 }], "insert"));
    expect(extra.details).toEqual({ records: ['row "2" has extra keys "m"'] });
    expect(await rows("bad", ["n"])).toEqual([]);
  });

  it("keeps CKAN's key rules for insert, update and upsert", async () => {
    await engine.createResource(meta("keys"), [
      { id: "k", type: "text" },
      { id: "v", type: "int4" },
    ]);
    await engine.write("keys", [{ k: "a", v: 1 }, { k: "a", v: 2 }], "insert");
    const dup = await caught(engine.setPrimaryKey("keys", ["k"]));
    expect(dup.details).toEqual({
      constraints: ["Cannot insert records or create index because of uniqueness constraint"],
      info: { orig: 'could not create unique index "keys_pkey"\nDETAIL:  Key (k)=(a) is duplicated.\n', pgcode: "23505" },
    });
    expect((await caught(engine.write("keys", [{ k: "a", v: 3 }], "upsert"))).details).toEqual({ table: ["unique key must be passed for update/upsert"] });
    await engine.deleteRows("keys", [{ op: "eq", field: "v", value: 2 }]);
    await engine.setPrimaryKey("keys", ["k"]);
    const ins = await caught(engine.write("keys", [{ k: "b", v: 1 }, { k: "a", v: 5 }], "insert"));
    expect(ins.details).toEqual({ records: ['duplicate key value violates unique constraint "keys_pkey"'], records_row: 1 });
    const upd = await caught(engine.write("keys", [{ k: "zz", v: 1 }], "update"));
    expect(upd.details).toEqual({ key: ["key \"['zz']\" not found"] });
    expect((await caught(engine.write("keys", [{ v: 1 }], "upsert"))).details).toEqual({ key: ['fields "k" are missing but needed as key'] });
    expect((await caught(engine.write("keys", [{ k: "a", w: 1 }], "upsert"))).details).toEqual({ fields: ['fields "w" do not exist'] });
    await engine.write("keys", [{ k: "a", v: 10 }, { k: "c", v: 3 }], "upsert");
    await engine.write("keys", [{ _id: 1, v: 11 }], "update");
    await engine.write("keys", [{ k: "c" }], "upsert"); // no field given: nothing changes
    // _ids the failed inserts drew are not handed out again (a sequence, as CKAN's).
    expect(await rows("keys", ["k", "v"])).toEqual([
      ["a", 11],
      ["c", 3],
    ]);
    expect((await engine.getResource("keys"))!.rowCount).toBe(2);
  });

  it("writes runs of keyed records as it would write them one at a time", async () => {
    await engine.createResource(meta("runs"), [
      { id: "k", type: "text" },
      { id: "v", type: "int4" },
    ]);
    await engine.setPrimaryKey("runs", ["k"]);
    await engine.write("runs", ["a", "b", "c", "d"].map((k, i) => ({ k, v: i })), "insert");
    const before = await rows("runs", ["_id", "k", "v"]);
    const batch = [{ k: "a", v: 10 }, { k: "new", v: 20 }, { k: "new", v: 30 }, { k: "b" }, { _id: 1, v: 11 }, { k: "c", v: 12 }];
    const bad = await caught(engine.write("runs", [...batch.slice(0, 5), { k: "c", v: "x" }], "upsert"));
    expect(bad.details).toEqual({ records: ['invalid input syntax for type integer: "x"'], records_row: 5 });
    expect(await rows("runs", ["_id", "k", "v"])).toEqual(before);
    await engine.write("runs", batch, "upsert");
    expect((await rows("runs", ["k", "v"])).sort()).toEqual([["a", 11], ["b", 1], ["c", 12], ["d", 3], ["new", 30]].sort());
    const missing = await caught(engine.write("runs", [{ k: "a", v: 0 }, { k: "b", v: 0 }, { k: "zz", v: 0 }], "update"));
    expect(missing.details).toEqual({ key: ["key \"['zz']\" not found"] });
    expect((await rows("runs", ["k", "v"])).find((r) => r[0] === "a")).toEqual(["a", 11]);
    const clash = await caught(engine.write("runs", [{ _id: 2, v: 5 }, { _id: 3, k: "a" }], "upsert"));
    expect(clash.details).toEqual({ records: ['duplicate key value violates unique constraint "runs_pkey"'], records_row: 1 });
  });

  it("rolls a transaction back as a whole, and a nested one on its own", async () => {
    await engine.createResource(meta("tx"), [{ id: "n", type: "int4" }]);
    await expect(
      engine.transaction(async (tx) => {
        await tx.write("tx", [{ n: 1 }], "insert");
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    await engine.transaction(async (tx) => {
      await tx.write("tx", [{ n: 2 }], "insert");
      await expect(tx.write("tx", [{ n: "x" }], "insert")).rejects.toBeInstanceOf(DatastoreError); // the transaction goes on
      await tx.transaction(async (inner) => {
        await inner.write("tx", [{ n: 3 }], "insert");
        throw new Error("inner");
      }).catch(() => undefined);
      expect((await tx.search((await tx.getResource("tx"))!, all(["n"]))).rows).toEqual([[2]]);
    });
    expect(await rows("tx", ["n"])).toEqual([[2]]);
    expect((await engine.getResource("tx"))!.rowCount).toBe(1);
  });

  it("lets other callers read the last committed state while a transaction runs, never part of it", async () => {
    await engine.createResource(meta("snap"), [{ id: "n", type: "int4" }]);
    await engine.transaction(async (tx) => {
      await tx.write("snap", [{ n: 1 }], "insert");
      expect((await engine.getResource("snap"))!.rowCount).toBe(0); // no wait: MVCC, unlike SQLite's one writer
      expect((await tx.getResource("snap"))!.rowCount).toBe(1);
    });
    expect((await engine.getResource("snap"))!.rowCount).toBe(1);
  });

  it("alters fields, keeps the full text in step, drops and re-creates a table", async () => {
    await engine.createResource(meta("alt"), [
      { id: "a", type: "text" },
      { id: "b", type: "text" },
    ]);
    await engine.write("alt", [{ a: "apple", b: "banana" }], "insert");
    const text = async () => (await raw.query(`SELECT _full_text::text AS v FROM "${schema}"."${(await engine.getResource("alt") as unknown as { table: string }).table}"`)).rows.map((x) => x.v);
    expect(await text()).toEqual(["'appl':1 'banana':2"]);
    await engine.alterFields("alt", [{ id: "c", type: "text" }], [{ id: "a", type: "text", info: { label: "A" } }], ["b"]);
    expect(await text()).toEqual(["'appl':1"]);
    await engine.write("alt", [{ _id: 1, c: "cherry" }], "update");
    expect(await text()).toEqual(["'appl':1 'cherri':2"]);
    const r = (await engine.getResource("alt"))!;
    expect(r.fields).toEqual([
      { id: "a", type: "text", info: { label: "A" } },
      { id: "c", type: "text" },
    ]);
    await engine.setIndexes("alt", [["a"], ["a", "c"]], [["a"]]);
    expect((await engine.getResource("alt"))!).toMatchObject({ indexes: [["a"], ["a", "c"]], importIndexes: [["a"]] });
    await engine.setAliases("alt", ["alt-alias"]);
    expect((await engine.getResource("alt-alias"))!.id).toBe("alt");
    expect(await engine.nameOwner("alt-alias")).toBe("alt");
    await engine.dropTable("alt");
    const gone = (await engine.getResource("alt"))!;
    expect(gone).toMatchObject({ active: false, fields: [], aliases: [], rowCount: 0 });
    expect((await caught(engine.write("alt", [{ a: "x" }], "insert"))).kind).toBe("not_found");
    await engine.createResource(meta("alt"), [{ id: "x", type: "int4" }]);
    expect((await engine.getResource("alt"))!).toMatchObject({ active: true, fields: [{ id: "x", type: "int4" }] });
  });

  it("serializes two app servers' writes to one resource", async () => {
    const other = await openPostgresEngine({ url: url!, schema, poolSize: 4, limits: config });
    try {
      await engine.createResource(meta("shared"), [{ id: "n", type: "int4" }]);
      const writes = Array.from({ length: 20 }, (_, i) => (i % 2 ? engine : other).write("shared", [{ n: i }], "insert"));
      const alter = other.alterFields("shared", [{ id: "m", type: "text" }], [], []);
      await Promise.all([...writes, alter]);
      const r = (await engine.getResource("shared"))!;
      expect(r.rowCount).toBe(20);
      expect(r.fields.map((f) => f.id)).toEqual(["n", "m"]);
      expect((await rows("shared", ["n"])).map((x) => x[0]).sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: 20 }, (_, i) => i));
    } finally {
      await other.close();
    }
  });

  it("locks what a write transaction reads: a second one adding the same field keeps the first one's values", async () => {
    await engine.createResource(meta("race"), [{ id: "a", type: "text" }]);
    const addX = async (tx: DatastoreEngine, r: Resource) => {
      if (!r.fields.some((f) => f.id === "x")) await tx.alterFields("race", [{ id: "x", type: "text" }], [], []);
    };
    // Some backend waits for a lock on a catalog row (B's read, behind A's).
    const readWaits = async () =>
      (await raw.query(`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%FOR UPDATE OF r%'`)).rowCount! > 0;
    let aRead!: () => void;
    const aHasRead = new Promise<void>((resolve) => (aRead = resolve));
    let bHasRead = false;
    const a = engine.transaction(async (tx) => {
      const r = (await tx.getResource("race"))!;
      aRead();
      // Go on once B has read too (without the lock), or waits for this transaction (with it).
      while (!bHasRead && !(await readWaits())) await new Promise((resolve) => setImmediate(resolve));
      await addX(tx, r);
      await tx.write("race", [{ a: "A", x: "A's x" }], "insert");
    });
    const b = aHasRead.then(() =>
      engine.transaction(async (tx) => {
        const r = (await tx.getResource("race"))!;
        bHasRead = true;
        await a;
        await addX(tx, r);
      }),
    );
    await Promise.all([a, b]);
    expect((await engine.getResource("race"))!.fields.map((f) => f.id)).toEqual(["a", "x"]);
    expect(await rows("race", ["a", "x"])).toEqual([["A", "A's x"]]);
  });

  it("two writers creating the same new resource at once: both succeed, one creates it", async () => {
    const other = await openPostgresEngine({ url: url!, schema, poolSize: 4, limits: config });
    try {
      let arrived = 0;
      let bothRead!: () => void;
      const barrier = new Promise<void>((resolve) => (bothRead = resolve));
      const create = (e: PostgresEngine, n: number) =>
        e.transaction(async (tx) => {
          const r = await tx.getResource("twice");
          if (++arrived === 2) bothRead();
          await barrier; // each saw no resource before either created it
          if (!r) await tx.createResource(meta("twice"), [{ id: "n", type: "int4" }]);
          await tx.write("twice", [{ n }], "insert");
        });
      await Promise.all([create(engine, 1), create(other, 2)]);
      expect((await rows("twice", ["n"])).map((x) => x[0]).sort()).toEqual([1, 2]);
    } finally {
      await other.close();
    }
  });

  it("answers PostgreSQL's size limits as validation errors, writing nothing", async () => {
    await engine.createResource(meta("long"), [{ id: "k", type: "text" }]);
    await engine.setPrimaryKey("long", ["k"]);
    const big = randomBytes(6000).toString("base64"); // past a btree entry's limit
    expect(await caught(engine.write("long", [{ k: big }], "insert"))).toMatchObject({ kind: "validation" });
    await engine.createResource(meta("tsv"), [{ id: "t", type: "text" }]);
    const words = Array.from({ length: 160_000 }, () => randomBytes(6).toString("hex")).join(" "); // past tsvector's 1 MB
    expect(await caught(engine.write("tsv", [{ t: words }], "insert"))).toMatchObject({ kind: "validation" });
    expect([await rows("long", ["k"]), await rows("tsv", ["t"])]).toEqual([[], []]);
  });

  it("takes any character in a field name, and finds no resource whose name holds NUL", async () => {
    const odd = "a\u0000b\u2028";
    await engine.createResource(meta("odd"), [{ id: odd, type: "text", info: { "\u0000": "x" } }]);
    await engine.write("odd", [{ [odd]: "v" }], "insert");
    await engine.setPrimaryKey("odd", [odd]);
    await engine.setIndexes("odd", [[odd]]);
    expect((await engine.getResource("odd"))!).toMatchObject({ fields: [{ id: odd, info: { "\u0000": "x" } }], primaryKey: [odd], indexes: [[odd]] });
    expect(await engine.getResource("odd\u0000")).toBeUndefined();
    expect(await engine.nameOwner("\u0000")).toBeUndefined();
    expect(await engine.tokens.findByHash("\u0000")).toBeUndefined();
  });

  it("deletes rows by filter and counts them", async () => {
    await engine.createResource(meta("del"), [{ id: "n", type: "int4" }]);
    await engine.write("del", [1, 2, 3, 4].map((n) => ({ n })), "insert");
    expect(await engine.deleteRows("del", [{ op: "in", field: "n", values: [1, 3] }])).toBe(2);
    expect((await engine.getResource("del"))!.rowCount).toBe(2);
    expect(await engine.deleteRows("del", [])).toBe(2);
    expect((await engine.getResource("del"))!.rowCount).toBe(0);
  });

  it("inserts in batches past the parameter limit", async () => {
    const fields = Array.from({ length: 40 }, (_, i) => ({ id: `f${i}`, type: "int4" as const }));
    await engine.createResource(meta("wide"), fields);
    const records: Record<string, unknown>[] = Array.from({ length: 5000 }, (_, r) => Object.fromEntries(fields.map((f, i) => [f.id, r + i])));
    records[4321].f7 = "bad";
    expect((await caught(engine.write("wide", records, "insert"))).details.records_row).toBe(4321);
    records[4321].f7 = 1;
    await engine.write("wide", records, "insert");
    expect((await engine.getResource("wide"))!.rowCount).toBe(5000);
  });

  it("stores tokens", async () => {
    const t = { id: "t1", name: "n", scope: "read" as const, hash: "h1", created: "2024-01-01T00:00:00", expires: null, lastUsed: null, resources: null, actions: null, ratePerMinute: null };
    await engine.tokens.insert(t);
    await engine.tokens.touch("t1", "2024-02-02T00:00:00");
    expect(await engine.tokens.findByHash("h1")).toEqual({ ...t, lastUsed: "2024-02-02T00:00:00" });
    expect(await engine.tokens.list()).toHaveLength(1);
    expect(await engine.tokens.remove("h1")).toBe(true);
    expect(await engine.tokens.remove("t1")).toBe(false);
  });

  it("lists resources and analyzes", async () => {
    const list = await engine.listResources();
    expect(list.map((r) => r.id)).toContain("types");
    await engine.analyze();
    await engine.check("quick");
  });

  it("backs up the schema with pg_dump", async () => {
    const target = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "pgdump-")), "b.dump");
    expect(await engine.backup(target)).toMatch(/Backed up schema/);
    expect(fs.statSync(target).size).toBeGreaterThan(0);
  });
});
