// The engine contract: one suite, run against every engine in ENGINES through the factory. A
// new engine is tested by adding a line there. Everything here goes through the DatastoreEngine
// interface only. The SQLite lines run in vitest's sqlite project; the PostgreSQL lines in its
// postgres project, where DATASTORE_DATABASE_URL names the run's throwaway cluster.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DatastoreEngine, Field, Filter, SearchQuery, SortClause } from "./engine";
import { DatastoreError } from "./errors";
import { parsePlain } from "./full-text";
import { pruneBefore } from "./history-retention";
import { DEFAULT_LANGUAGE } from "./text-language";
import { openEngine } from "./open";

const databaseUrl = process.env.DATASTORE_DATABASE_URL?.trim();
/** A new schema for each engine opened: every test starts from an empty store. */
const schema = () => `c_${randomBytes(8).toString("hex")}`;

const ENGINES: { name: string; open: () => Promise<DatastoreEngine> }[] = databaseUrl
  ? [
      { name: "PostgreSQL", open: () => openEngine({ databaseUrl, schema: schema() }) },
      // Data reads through the read pool, as with a replica (here the primary itself, never behind).
      { name: "PostgreSQL with a read URL", open: () => openEngine({ databaseUrl, readDatabaseUrl: databaseUrl, schema: schema() }) },
    ]
  : [
      { name: "SQLite", open: () => openEngine({ file: tempFile(), readWorkers: 0 }) },
      { name: "SQLite with read workers", open: () => openEngine({ file: tempFile(), readWorkers: 2 }) },
    ];

function tempFile(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), "engine-")), "e.db");
}

const base: SearchQuery = { filters: [], fts: [], columns: ["_id", "n"], sort: [], distinct: false, limit: 3, offset: 0, includeTotal: true };
const asc = (field: string): SortClause => ({ field, desc: false, nullsFirst: false });
const desc = (field: string): SortClause => ({ field, desc: true, nullsFirst: true });
const meta = (id: string) => ({ id, name: id, description: "", private: false });

async function caught(p: Promise<unknown>): Promise<DatastoreError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof DatastoreError) return e;
    throw e;
  }
  throw new Error("expected a DatastoreError");
}

describe.each(ENGINES)("engine contract: $name", ({ name, open }) => {
  const postgres = name.startsWith("PostgreSQL");
  let engine: DatastoreEngine;

  beforeEach(async () => {
    engine = await open();
  });
  afterEach(async () => {
    await engine.close();
  });

  async function table(id: string, fields: Field[], records: Record<string, unknown>[]) {
    await engine.createResource(meta(id), fields);
    await engine.write(id, records, "insert");
    return (await engine.getResource(id))!;
  }

  const rows = async (id: string, query: SearchQuery) => (await engine.search((await engine.getResource(id))!, query)).rows;

  describe("sorting keeps PostgreSQL's answers", () => {
    beforeEach(async () => {
      await table("r", [{ id: "n", type: "int4" }], [5, 3, 9, 1, 7].map((n) => ({ n })));
      await engine.setIndexes("r", [["n"]]);
    });

    it("sorts an indexed column without NULLs in both directions", async () => {
      expect((await rows("r", { ...base, sort: [asc("n")] })).map((r) => r[1])).toEqual([1, 3, 5]);
      expect((await rows("r", { ...base, sort: [desc("n")] })).map((r) => r[1])).toEqual([9, 7, 5]);
    });

    it("puts NULLs last ascending and first descending once the column holds one", async () => {
      await engine.write("r", [{ n: null }], "insert");
      expect((await rows("r", { ...base, sort: [asc("n")], limit: 10 })).map((r) => r[1])).toEqual([1, 3, 5, 7, 9, null]);
      expect((await rows("r", { ...base, sort: [desc("n")] })).map((r) => r[1])).toEqual([null, 9, 7]);
      expect((await rows("r", { ...base, sort: [{ field: "n", desc: false, nullsFirst: true }] })).map((r) => r[1])).toEqual([null, 1, 3]);
    });

    it("pages deep by _id the same whether _ids are dense or have gaps", async () => {
      expect((await rows("r", { ...base, offset: 2 })).map((r) => r[1])).toEqual([9, 1, 7]);
      await engine.deleteRows("r", [{ op: "in", field: "n", values: [3] }]);
      expect((await rows("r", { ...base, offset: 2 })).map((r) => r[1])).toEqual([1, 7]);
      expect((await engine.search((await engine.getResource("r"))!, { ...base, offset: 2 })).total).toBe(4);
    });

    it("orders array fields element by element, shorter prefixes and NULL arrays as PostgreSQL does", async () => {
      const values = [[10], [9], [1, 10], [1, 2], [], null, [1], [1, null], [2]];
      await table("arr", [{ id: "a", type: "_int4" }], values.map((a) => ({ a })));
      const sorted = async (s: SortClause) => (await rows("arr", { ...base, columns: ["a"], sort: [s], limit: 20 })).map((r) => r[0]);
      expect(await sorted(asc("a"))).toEqual([[], [1], [1, 2], [1, 10], [1, null], [2], [9], [10], null]);
      expect(await sorted(desc("a"))).toEqual([null, [10], [9], [2], [1, null], [1, 10], [1, 2], [1], []]);
      await table("words", [{ id: "w", type: "_text" }], [["b"], ["a", "z"], ["a"], ["ab"]].map((w) => ({ w })));
      const words = (await rows("words", { ...base, columns: ["w"], sort: [asc("w")], limit: 20 })).map((r) => r[0]);
      expect(words).toEqual([["a"], ["a", "z"], ["ab"], ["b"]]);
    });
  });

  describe("best-first full-text order", () => {
    it("ranks every match: each offset has its rows and the best match comes first", async () => {
      const records = Array.from({ length: 2500 }, (_, i) => ({ txt: i === 2400 ? "apple apple apple apple" : `apple number ${i + 1}` }));
      const r = await table("fruit", [{ id: "txt", type: "text" }], records);
      const fts = [{ field: null, tree: parsePlain("apple"), rank: "rank" }];
      const query: SearchQuery = { ...base, columns: ["_id", "txt"], fts, sort: [{ field: "rank", desc: true, nullsFirst: false }], limit: 100 };
      const first = await engine.search(r, query);
      expect(first.total).toBe(2500);
      expect(first.rows[0]).toEqual([2401, "apple apple apple apple"]);
      const seen = new Set<number>();
      for (let offset = 0; offset < 2500; offset += 500) {
        const page = await engine.search(r, { ...query, offset, limit: 500, includeTotal: false });
        expect(page.rows).toHaveLength(500);
        for (const [id] of page.rows) seen.add(id as number);
      }
      expect(seen.size).toBe(2500);
    });

    it("sees writes: a new best match comes first on the next search", async () => {
      const r = await table("w", [{ id: "txt", type: "text" }], Array.from({ length: 50 }, (_, i) => ({ txt: `pear ${i}` })));
      const query: SearchQuery = { ...base, columns: ["_id"], fts: [{ field: null, tree: parsePlain("pear"), rank: "rank" }], sort: [{ field: "rank", desc: true, nullsFirst: false }] };
      await engine.search(r, query);
      await engine.write("w", [{ txt: "pear pear pear pear pear" }], "insert");
      const after = await engine.search((await engine.getResource("w"))!, query);
      expect(after.rows[0]).toEqual([51]);
      expect(after.total).toBe(51);
    });
  });

  describe("full text in the resource's language", () => {
    const TEXTS = ["Les chevaux galopent", "Un cheval blanc", "L'élève travaille", "Die Häuser am See", "Ein Haus", "The running cats"];

    /** Ids of the rows a plain q finds, read in `language` (the resource's when absent). */
    async function find(id: string, q: string, language?: string): Promise<number[]> {
      const r = (await engine.getResource(id))!;
      const tree = parsePlain(q, language ?? r.language ?? DEFAULT_LANGUAGE);
      const fts = [{ field: null, tree, rank: "rank", text: q, ...(language ? { language } : {}) }];
      return (await engine.search(r, { ...base, columns: ["_id"], fts, sort: [asc("_id")], limit: 10 })).rows.map((row) => row[0] as number);
    }

    async function texts(id: string, language?: string) {
      await engine.createResource({ ...meta(id), ...(language ? { language } : {}) }, [{ id: "txt", type: "text" }]);
      await engine.write(id, TEXTS.map((txt) => ({ txt })), "insert");
    }

    it("stems French after folding accents: chevaux finds cheval, eleve finds élève", async () => {
      await texts("fr", "french");
      expect((await engine.getResource("fr"))!.language).toBe("french");
      expect(await find("fr", "chevaux")).toEqual([1, 2]);
      expect(await find("fr", "eleve")).toEqual([3]);
      expect(await find("fr", "ÉLÈVES")).toEqual([3]);
      // `le` is a French stop word (not an English one): nothing is left to search.
      expect(parsePlain("le", "french")).toBeNull();
      expect(parsePlain("le")).not.toBeNull();
    });

    it("stems German: Häuser finds Haus", async () => {
      await texts("de", "german");
      expect(await find("de", "Häuser")).toEqual([4, 5]);
      expect(await find("de", "haus")).toEqual([4, 5]);
    });

    it("does not stem in simple, but folds and keeps every word", async () => {
      await texts("s", "simple");
      expect(await find("s", "running")).toEqual([6]);
      expect(await find("s", "run")).toEqual([]);
      expect(await find("s", "the")).toEqual([6]);
      expect(await find("s", "eleve")).toEqual([3]);
      expect(await find("s", "chevaux")).toEqual([1]);
    });

    it("keeps english by default, and reads a query in the search's own language", async () => {
      await texts("en");
      expect((await engine.getResource("en"))!.language).toBe(DEFAULT_LANGUAGE);
      expect(await find("en", "chevaux")).toEqual([1]);
      expect(await find("en", "run")).toEqual([6]);
      // Read in French, chevaux is cheval, which the english index holds for row 2.
      expect(await find("en", "chevaux", "french")).toEqual([2]);
    });

    it("rebuilds the index when the language changes, and indexes later writes in the new one", async () => {
      await texts("ch");
      expect(await find("ch", "chevaux")).toEqual([1]);
      await engine.setLanguage("ch", "french");
      expect((await engine.getResource("ch"))!.language).toBe("french");
      expect(await find("ch", "chevaux")).toEqual([1, 2]);
      await engine.write("ch", [{ txt: "des chevaux" }], "insert");
      expect(await find("ch", "cheval")).toEqual([1, 2, 7]);
    });
  });

  describe("numbers in full text", () => {
    it("keep a decimal, a sign or an exponent as one word, as PostgreSQL's parser does", async () => {
      const values = ["13.4", "4", "-4", "1.5e-3", "version 1.2.3", "covid-19"];
      const r = await table("nums", [{ id: "txt", type: "text" }, { id: "x", type: "numeric" }], values.map((txt, i) => ({ txt, x: i === 0 ? 13.4 : i === 2 ? -4 : null })));
      const find = async (q: string) =>
        (await engine.search(r, { ...base, columns: ["_id"], fts: [{ field: null, tree: parsePlain(q), rank: "rank", text: q }], sort: [asc("_id")], limit: 10 })).rows.map((row) => row[0]);
      expect(await find("4")).toEqual([2]);
      expect(await find("13.4")).toEqual([1]);
      expect(await find("-4")).toEqual([3]);
      expect(await find("1.5e-3")).toEqual([4]);
      expect(await find("1.2.3")).toEqual([5]);
      // SQLite reads covid-19 as two words; PostgreSQL's parser (so CKAN) as covid and -19.
      expect(await find("19")).toEqual(postgres ? [] : [6]);
      expect(await find("covid-19")).toEqual([6]);
    });
  });

  describe("transactions", () => {
    it("roll back every write when the function throws, and commit them together otherwise", async () => {
      await engine.createResource(meta("t"), [{ id: "n", type: "int4" }]);
      await expect(
        engine.transaction(async (tx) => {
          await tx.write("t", [{ n: 1 }], "insert");
          await tx.createResource(meta("t2"), [{ id: "x", type: "text" }]);
          throw new Error("stop");
        }),
      ).rejects.toThrow("stop");
      expect((await engine.getResource("t"))!.rowCount).toBe(0);
      expect(await engine.getResource("t2")).toBeUndefined();
      await engine.transaction(async (tx) => {
        await tx.write("t", [{ n: 1 }, { n: 2 }], "insert");
        await tx.setIndexes("t", [["n"]]);
      });
      expect((await engine.getResource("t"))!).toMatchObject({ rowCount: 2, indexes: [["n"]] });
    });

    it("undo a nested transaction alone, and never show other callers the outer one before it commits", async () => {
      await engine.createResource(meta("t"), [{ id: "n", type: "int4" }]);
      let seenDuring: number | undefined;
      const order: string[] = [];
      let outside: Promise<void> | undefined;
      await engine.transaction(async (tx) => {
        await tx.write("t", [{ n: 1 }], "insert");
        await expect(tx.transaction(async (inner) => {
          await inner.write("t", [{ n: 2 }], "insert");
          throw new Error("inner");
        })).rejects.toThrow("inner");
        outside = engine.getResource("t").then((r) => {
          seenDuring = r!.rowCount;
          order.push("outside read");
        });
        if (postgres) {
          // PostgreSQL answers the last committed state at once, on a connection of its own
          // (opening it may take a while on a busy machine): were it made to wait for this
          // commit, this would never resolve.
          await outside;
        } else {
          // SQLite queues the read behind the transaction: the transaction's own read, sent
          // after it, comes back first.
          expect((await tx.getResource("t"))!.rowCount).toBe(1);
        }
        order.push("transaction done");
      });
      await outside;
      expect(seenDuring).toBe(postgres ? 0 : 1);
      expect(order).toEqual(postgres ? ["outside read", "transaction done"] : ["transaction done", "outside read"]);
      expect((await engine.getResource("t"))!.rowCount).toBe(1);
    });
  });

  describe("nested transactions and ranked lists", () => {
    it("run one at a time, so the one that fails is rolled back alone", async () => {
      await engine.createResource(meta("t"), [{ id: "n", type: "int4" }]);
      const settled: PromiseSettledResult<void>[] = [];
      await engine.transaction(async (tx) => {
        const a = tx.transaction(async (x) => {
          await x.write("t", [{ n: 1 }], "insert");
          await new Promise((r) => setTimeout(r, 20));
        });
        const b = tx.transaction(async (x) => {
          await x.write("t", [{ n: 2 }], "insert");
          await new Promise((r) => setTimeout(r, 40));
          throw new Error("b fails");
        });
        settled.push(...(await Promise.allSettled([a, b])));
      });
      expect(settled.map((x) => x.status)).toEqual(["fulfilled", "rejected"]);
      expect((settled[1] as PromiseRejectedResult).reason.message).toBe("b fails");
      expect((await engine.getResource("t"))!.rowCount).toBe(1);
    });

    it("never serve a list built from rows a transaction then rolled back", async () => {
      await engine.createResource(meta("r"), [{ id: "w", type: "text" }]);
      await engine.write("r", [{ w: "apple one" }, { w: "pear" }], "insert");
      const query: SearchQuery = { ...base, columns: ["_id", "w"], fts: [{ field: null, tree: parsePlain("apple"), rank: "rank" }], sort: [{ field: "rank", desc: true, nullsFirst: false }], limit: 10 };
      await expect(
        engine.transaction(async (tx) => {
          await tx.write("r", [{ w: "apple ghost" }], "insert");
          const inside = await tx.search((await tx.getResource("r"))!, query);
          expect(inside.rows.map((r) => r[1]).sort()).toEqual(["apple ghost", "apple one"]);
          throw new Error("roll back");
        }),
      ).rejects.toThrow("roll back");
      await engine.write("r", [{ w: "banana" }], "insert"); // the version number the rolled-back write had
      expect((await engine.search((await engine.getResource("r"))!, query)).rows.map((r) => r[1])).toEqual(["apple one"]);
    });
  });

  describe("writes", () => {
    it("refuse a duplicate key as CKAN does: the row under `records`, a new key under `constraints`", async () => {
      await engine.createResource(meta("k"), [{ id: "id", type: "text" }]);
      await engine.setPrimaryKey("k", ["id"]);
      const e = await caught(engine.write("k", [{ id: "a" }, { id: "b" }, { id: "a" }], "insert"));
      expect(e.details).toEqual({ records: [expect.stringMatching(/^duplicate key value violates unique constraint/)], records_row: 2 });
      expect((await engine.getResource("k"))!.rowCount).toBe(0);
      await engine.setPrimaryKey("k", []);
      await engine.write("k", [{ id: "a" }, { id: "a" }], "insert");
      const k = await caught(engine.setPrimaryKey("k", ["id"]));
      expect(k.details).toEqual({
        constraints: ["Cannot insert records or create index because of uniqueness constraint"],
        info: { orig: expect.stringContaining("Key (id)=(a) is duplicated."), pgcode: "23505" },
      });
      expect((await engine.getResource("k"))!.primaryKey).toEqual([]);
    });

    it("name a missing key of an update the way CKAN prints it", async () => {
      await engine.createResource(meta("k"), [{ id: "id", type: "text" }, { id: "n", type: "int4" }]);
      await engine.setPrimaryKey("k", ["id"]);
      expect((await caught(engine.write("k", [{ id: "1", n: 2 }], "update"))).details).toEqual({ key: [`key "['1']" not found`] });
      expect((await caught(engine.write("k", [{ _id: 7, n: 2 }], "update"))).details).toEqual({ key: [`key "[7]" not found`] });
    });

    it("bulk-load rows in one transaction, counted and searchable once finished", async () => {
      await engine.createResource(meta("b"), [{ id: "n", type: "int4" }, { id: "word", type: "text" }]);
      await engine.transaction(async (tx) => {
        const load = await tx.bulkLoad("b", ["word", "n"]);
        await load.append(Array.from({ length: 1500 }, (_, i) => [i % 2 ? "odd" : "even", String(i)]));
        // 500 left, or none: PostgreSQL's trigger indexes each row as COPY writes it.
        expect([0, 500]).toContain(await load.index(1000));
        expect(await load.finish()).toBe(1500);
      });
      const r = (await engine.getResource("b"))!;
      expect(r.rowCount).toBe(1500);
      const odd = await engine.search(r, { ...base, fts: [{ field: null, tree: parsePlain("odd"), rank: "rank" }], limit: 0 });
      expect(odd.total).toBe(750);
    });
  });

  describe("dropping a table", () => {
    it("keeps the resource, inactive, until a create gives it a table again", async () => {
      await table("d", [{ id: "n", type: "int4" }], [{ n: 1 }]);
      await engine.setAliases("d", ["d-alias"]);
      await engine.dropTable("d");
      expect(await engine.getResource("d")).toMatchObject({ id: "d", active: false, fields: [], rowCount: 0, aliases: [] });
      expect(await engine.getResource("d-alias")).toBeUndefined();
      expect((await caught(engine.write("d", [{ n: 2 }], "insert"))).kind).toBe("not_found");
      await engine.createResource(meta("d"), [{ id: "x", type: "text" }]);
      await engine.write("d", [{ x: "back" }], "insert");
      expect(await engine.getResource("d")).toMatchObject({ active: true, fields: [{ id: "x", type: "text" }], rowCount: 1 });
    });
  });

  describe("streams and tokens", () => {
    it("streams rows in _id order by keyset: each row once, rows written ahead of the walk too", async () => {
      const r = await table("s", [{ id: "n", type: "int4" }], Array.from({ length: 2500 }, (_, i) => ({ n: i })));
      const chunks: unknown[][][] = [];
      for await (const chunk of engine.iterate(r, { ...base, columns: ["n"], sort: [asc("_id")], limit: -1 })) {
        chunks.push(chunk);
        if (chunks.length === 1) {
          await engine.write("s", [{ n: -1 }], "insert"); // ahead of the walk: read
          await engine.deleteRows("s", [{ op: "eq", field: "n", value: 0 }]); // behind it: already sent
        }
      }
      expect(chunks.length).toBeGreaterThan(1);
      expect(chunks.flat().map((row) => row[0])).toEqual([...Array.from({ length: 2500 }, (_, i) => i), -1]);
    });

    it("streams keyset chunks under filters, offset and limit, both ways", async () => {
      const r = await table("k", [{ id: "n", type: "int4" }], Array.from({ length: 3000 }, (_, i) => ({ n: i })));
      const read = async (q: Partial<SearchQuery>) => {
        const out: unknown[] = [];
        for await (const chunk of engine.iterate(r, { ...base, columns: ["n"], limit: -1, ...q })) out.push(...chunk.map((row) => row[0]));
        return out;
      };
      const odd: Filter = { op: "in", field: "n", values: Array.from({ length: 1500 }, (_, i) => 2 * i + 1) };
      expect(await read({ sort: [asc("_id")], filters: [odd], offset: 10, limit: 1200 })).toEqual(Array.from({ length: 1200 }, (_, i) => 2 * (i + 10) + 1));
      expect(await read({ sort: [{ field: "_id", desc: true, nullsFirst: true }], limit: 2001 })).toEqual(Array.from({ length: 2001 }, (_, i) => 2999 - i));
    });

    it("streams rows in any other order from one snapshot", async () => {
      const r = await table("o", [{ id: "n", type: "int4" }], Array.from({ length: 2500 }, (_, i) => ({ n: i })));
      const chunks: unknown[][][] = [];
      for await (const chunk of engine.iterate(r, { ...base, columns: ["n"], sort: [asc("n")], limit: -1 })) {
        chunks.push(chunk);
        if (chunks.length === 1) await engine.write("o", [{ n: 9999 }], "insert"); // not in this snapshot
      }
      expect(chunks.length).toBeGreaterThan(1);
      expect(chunks.flat().map((row) => row[0])).toEqual(Array.from({ length: 2500 }, (_, i) => i));
    });

    it("store tokens by hash: insert, find, touch, list, remove", async () => {
      const t = { id: "t1", name: "ci", scope: "write" as const, hash: "h1", created: "2026-01-01T00:00:00Z", expires: null, lastUsed: null, resources: ["r1", "r 2"], actions: ["datastore_upsert"], ratePerMinute: 90 };
      await engine.tokens.insert(t);
      expect(await engine.tokens.findByHash("h1")).toEqual(t);
      await engine.tokens.touch("t1", "2026-02-01T00:00:00Z");
      expect(await engine.tokens.list()).toEqual([{ ...t, lastUsed: "2026-02-01T00:00:00Z" }]);
      expect(await engine.tokens.remove("h1")).toBe(true);
      expect(await engine.tokens.remove("t1")).toBe(false);
      expect(await engine.tokens.findByHash("h1")).toBeUndefined();
    });

    it("keep the audit trail: recorded with a transaction's write or not at all, read newest first, filtered, pruned", async () => {
      const entry = (at: string, resourceId: string | null, token: string) => ({ at, tokenId: `id-${token}`, tokenName: token, action: "datastore_upsert", resourceId, rows: 3, detail: { method: "upsert" } });
      await engine.audit.record(entry("2026-01-01T00:00:00.000Z", "a", "ci"));
      await engine.transaction(async (tx) => tx.audit.record(entry("2026-01-02T00:00:00.000Z", "b", "ci")));
      await caught(
        engine.transaction(async (tx) => {
          await tx.audit.record(entry("2026-01-03T00:00:00.000Z", "a", "gone"));
          throw DatastoreError.field("x", "rolled back");
        }),
      );
      await engine.audit.record(entry("2026-01-04T00:00:00.000Z", "a", "etl"));
      const all = await engine.audit.list({ limit: 10, offset: 0 });
      expect(all.map((e) => e.tokenName)).toEqual(["etl", "ci", "ci"]);
      expect(all[0]).toMatchObject({ ...entry("2026-01-04T00:00:00.000Z", "a", "etl"), id: expect.any(Number) });
      expect((await engine.audit.list({ resourceId: "a", limit: 10, offset: 0 })).map((e) => e.at.slice(0, 10))).toEqual(["2026-01-04", "2026-01-01"]);
      expect(await engine.audit.list({ token: "id-etl", limit: 10, offset: 0 })).toHaveLength(1);
      expect((await engine.audit.list({ since: "2026-01-02T00:00:00.000Z", until: "2026-01-04T00:00:00.000Z", limit: 10, offset: 0 })).map((e) => e.resourceId)).toEqual(["b"]);
      expect((await engine.audit.list({ before: all[0].id, limit: 1, offset: 1 })).map((e) => e.resourceId)).toEqual(["a"]);
      expect(await engine.audit.prune("2026-01-03T00:00:00.000Z")).toBe(2);
      expect((await engine.audit.list({ limit: 10, offset: 0 })).map((e) => e.tokenName)).toEqual(["etl"]);
    });
  });

  describe("history (issue 27)", () => {
    const cols = { ...base, columns: ["_id", "n", "s"], sort: [asc("_id")], limit: 10 };
    const state = async (id: string) => engine.historyState((await engine.getResource(id))!);
    const at = async (id: string, asOf: number, query: Partial<SearchQuery> = {}) => {
      const out = await engine.search((await engine.getResource(id))!, { ...cols, ...query, asOf });
      return { rows: out.rows, total: out.total };
    };

    it("reads the rows as they were at each version: updates, deletes and inserts, with filters, sort, paging and totals", async () => {
      const fields: Field[] = [{ id: "n", type: "int4" }, { id: "s", type: "text" }];
      const author = { tokenId: "t1", tokenName: "etl" };
      const w = engine.forClient("test", author);
      await w.createResource(meta("h"), fields);
      const v0 = (await state("h")).version;
      await w.write("h", [1, 2, 3].map((n) => ({ n, s: `a${n}` })), "insert");
      const v1 = (await state("h")).version;
      await w.write("h", [{ _id: 2, s: "b2" }], "update");
      const v2 = (await state("h")).version;
      await w.deleteRows("h", [{ op: "eq", field: "n", value: 3 }]);
      await w.write("h", [{ n: 4, s: "a4" }], "insert");
      const v4 = (await state("h")).version;
      expect(v1).toBeGreaterThan(v0);
      expect(v4).toBe(v2 + 2);
      expect(await at("h", v0)).toEqual({ rows: [], total: 0 });
      expect(await at("h", v1)).toEqual({ rows: [[1, 1, "a1"], [2, 2, "a2"], [3, 3, "a3"]], total: 3 });
      expect(await at("h", v2)).toEqual({ rows: [[1, 1, "a1"], [2, 2, "b2"], [3, 3, "a3"]], total: 3 });
      expect(await at("h", v2 + 1)).toEqual({ rows: [[1, 1, "a1"], [2, 2, "b2"]], total: 2 });
      expect(await at("h", v4)).toEqual({ rows: [[1, 1, "a1"], [2, 2, "b2"], [4, 4, "a4"]], total: 3 });
      // Filters, sort and paging see the old values.
      expect(await at("h", v1, { filters: [{ op: "eq", field: "s", value: "a2" }] })).toEqual({ rows: [[2, 2, "a2"]], total: 1 });
      expect(await at("h", v2, { filters: [{ op: "eq", field: "s", value: "a2" }] })).toEqual({ rows: [], total: 0 });
      expect(await at("h", v1, { sort: [desc("n")], limit: 1, offset: 1 })).toEqual({ rows: [[2, 2, "a2"]], total: 3 });

      const st = await state("h");
      expect(st).toMatchObject({ version: v4, written: v4, enabled: true, oldest: v0 });
      const size = await engine.historySize((await engine.getResource("h"))!);
      expect(size).toMatchObject({ rows: 2 });
      expect(size.versions).toBeGreaterThanOrEqual(5);

      const r = (await engine.getResource("h"))!;
      const images = await engine.rowImages(r, { id: 2 });
      expect(images?.images.map((i) => [i.from, i.to, i.record.s])).toEqual([[v1, v2, "a2"], [v2, null, "b2"]]);
      expect((await engine.rowImages(r, { id: 3 }))?.images.map((i) => [i.from, i.to, i.deleted])).toEqual([[v1, v2 + 1, true]]);
      const entries = await engine.versionEntries(r, [v1, v2 + 1]);
      expect(entries.map((e) => [e.version, e.kind, e.token])).toEqual([[v1, "write", "etl"], [v2 + 1, "delete", "etl"]]);
      expect((await engine.versionAt(r, { time: "2999-01-01T00:00:00.000Z" }))?.version).toBe(v4);
      expect(await engine.versionAt(r, { time: "2000-01-01T00:00:00.000Z" })).toBeUndefined();

      const changes = await engine.changes(r, v1, null, 10);
      expect(changes.changes.map((c) => [c.version, c.id, c.old?.s ?? null, c.record?.s ?? null])).toEqual([
        [v2, 2, "a2", "b2"],
        [v2 + 1, 3, "a3", null],
        [v4, 4, null, "a4"],
      ]);
      expect(changes).toMatchObject({ total: 3, records: 3 });
      const page = await engine.changes(r, v1, { version: v2, id: 2 }, 1);
      expect(page.changes.map((c) => c.id)).toEqual([3]);
      expect((await engine.changes(r, v0, null, 0)).records).toBe(4);
    });

    it("pages a past version at every offset, in _id order and under an indexed range, as its rows were (rows deleted at the ends, then gaps)", async () => {
      await engine.createResource(meta("d"), [{ id: "n", type: "int4" }, { id: "s", type: "text" }]);
      await engine.setIndexes("d", [["n"]]);
      // The table at each version, kept beside it: id -> [_id, n, s].
      const model = new Map<number, unknown[]>();
      const versions: { v: number; rows: unknown[][] }[] = [];
      const snap = async () => versions.push({ v: (await state("d")).version, rows: [...model.values()].sort((a, b) => (a[0] as number) - (b[0] as number)) });
      await engine.write("d", Array.from({ length: 24 }, (_, i) => ({ n: i % 5, s: `a${i + 1}` })), "insert");
      for (let i = 1; i <= 24; i++) model.set(i, [i, (i - 1) % 5, `a${i}`]);
      await snap();
      await engine.write("d", [3, 4, 9, 20].map((id) => ({ _id: id, n: 7, s: `b${id}` })), "update");
      for (const id of [3, 4, 9, 20]) model.set(id, [id, 7, `b${id}`]);
      await snap();
      // Rows deleted from both ends only: today's `_id`s stay unbroken.
      await engine.deleteRows("d", [{ op: "in", field: "_id", values: [1, 2, 3, 23, 24] }]);
      for (const id of [1, 2, 3, 23, 24]) model.delete(id);
      await snap();
      const check = async () => {
        for (const { v, rows: all } of versions) {
          const ranged = all.filter((row) => (row[1] as number) >= 1 && (row[1] as number) <= 2);
          for (let offset = 0; offset <= all.length + 1; offset++) {
            expect(await at("d", v, { offset, limit: 3, includeTotal: false }), `v${v} offset ${offset}`).toEqual({ rows: all.slice(offset, offset + 3), total: undefined });
            const range: Filter[] = [{ op: "gte", field: "n", value: 1 }, { op: "lte", field: "n", value: 2 }];
            expect(await at("d", v, { filters: range, offset, limit: 2 }), `v${v} range offset ${offset}`).toEqual({ rows: ranged.slice(offset, offset + 2), total: ranged.length });
          }
        }
      };
      await check();
      // An insert after the deleted last rows leaves a gap in today's `_id`s.
      await engine.write("d", [{ n: 1, s: "a25" }], "insert");
      model.set(25, [25, 1, "a25"]);
      await engine.write("d", [{ _id: 4, n: 2, s: "c4" }], "update");
      model.set(4, [4, 2, "c4"]);
      await snap();
      await check();
      // A row deleted in the middle: today's `_id`s have a gap.
      await engine.deleteRows("d", [{ op: "eq", field: "_id", value: 12 }]);
      model.delete(12);
      await snap();
      await check();
    });

    it("a bulk load is one version without row images; its rows change like any others'", async () => {
      await engine.createResource(meta("b"), [{ id: "n", type: "int4" }, { id: "s", type: "text" }]);
      const v0 = (await state("b")).version;
      await engine.transaction(async (tx) => {
        const load = await tx.bulkLoad("b", ["n", "s"]);
        await load.append([[1, "x"], [2, "y"]]);
        await load.finish();
      });
      const v1 = (await state("b")).version;
      expect(v1).toBe(v0 + 1);
      expect(await engine.historySize((await engine.getResource("b"))!)).toMatchObject({ rows: 0 });
      await engine.write("b", [{ _id: 1, s: "z" }], "update");
      await engine.transaction(async (tx) => {
        const load = await tx.bulkLoad("b", ["n", "s"]);
        await load.append([[3, "w"]]);
        await load.finish();
      });
      const v3 = (await state("b")).version;
      expect(await at("b", v0)).toEqual({ rows: [], total: 0 });
      expect(await at("b", v1)).toEqual({ rows: [[1, 1, "x"], [2, 2, "y"]], total: 2 });
      expect(await at("b", v1 + 1)).toEqual({ rows: [[1, 1, "z"], [2, 2, "y"]], total: 2 });
      expect(await at("b", v3)).toEqual({ rows: [[1, 1, "z"], [2, 2, "y"], [3, 3, "w"]], total: 3 });
      const r = (await engine.getResource("b"))!;
      expect((await engine.rowImages(r, { id: 1 }))?.images.map((i) => [i.from, i.to])).toEqual([[v1, v1 + 1], [v1 + 1, null]]);
      const changes = await engine.changes(r, v0, null, 10);
      expect(changes.changes.map((c) => [c.version, c.id, c.old?.s ?? null, c.record?.s ?? null])).toEqual([
        [v1, 1, null, "x"],
        [v1, 2, null, "y"],
        [v1 + 1, 1, "x", "z"],
        [v3, 3, null, "w"],
      ]);
      expect(changes).toMatchObject({ total: 4, records: 3 });
    });

    it("removes the images no version from a time on reads, and reads from the newest version before it", async () => {
      await engine.createResource(meta("p"), [{ id: "n", type: "int4" }, { id: "s", type: "text" }]);
      await engine.write("p", [{ n: 1, s: "a" }], "insert");
      await engine.write("p", [{ _id: 1, s: "b" }], "update");
      const kept = (await state("p")).version;
      const cut = new Date(Date.now() + 1000).toISOString();
      await new Promise((resolve) => setTimeout(resolve, 1100));
      await engine.write("p", [{ _id: 1, s: "c" }], "update");
      expect(await pruneBefore(engine, cut)).toBe(1);
      expect(await state("p")).toMatchObject({ oldest: kept });
      expect(await engine.historySize((await engine.getResource("p"))!)).toMatchObject({ rows: 1 });
      expect(await at("p", kept)).toEqual({ rows: [[1, 1, "b"]], total: 1 });
    });

    it("reads each version with its own field list: a field added later absent, a dropped field with its values, a type then", async () => {
      const w = engine.forClient("test", { tokenId: "t1", tokenName: "etl" });
      await w.createResource(meta("f"), [{ id: "n", type: "int4" }, { id: "s", type: "text" }, { id: "x", type: "int4" }]);
      await w.write("f", [{ n: 1, s: "a", x: 10 }, { n: 2, s: "b", x: 20 }], "insert");
      await w.write("f", [{ _id: 2, s: "b2" }], "update");
      const beforeAdd = (await state("f")).version;
      await w.alterFields("f", [{ id: "y", type: "text" }], [], []);
      await w.write("f", [{ _id: 1, y: "y1" }], "update");
      const beforeDrop = (await state("f")).version;
      await w.alterFields("f", [], [], ["x"]);
      const beforeRetype = (await state("f")).version;
      // A type changes as a field dropped, then added again with another type.
      await w.alterFields("f", [{ id: "x", type: "text" }], [], []);
      const retyped = (await state("f")).version;
      await w.write("f", [{ _id: 2, x: "twenty" }], "update");
      const r = (await engine.getResource("f"))!;
      const ids = (fields: Field[] | undefined) => fields?.map((f) => `${f.id}:${f.type}`);
      expect(ids(await engine.fieldsAt(r, beforeAdd))).toEqual(["n:int4", "s:text", "x:int4"]);
      expect(ids(await engine.fieldsAt(r, beforeDrop))).toEqual(["n:int4", "s:text", "x:int4", "y:text"]);
      expect(ids(await engine.fieldsAt(r, beforeRetype))).toEqual(["n:int4", "s:text", "y:text"]);
      expect(await engine.fieldsAt(r, retyped)).toBeUndefined();
      // A field change is a version: the one before it is not read as today.
      expect((await state("f")).written).toBe(retyped + 1);
      const entries = await engine.versionEntries(r, [beforeAdd + 1]);
      expect(entries.map((e) => [e.kind, e.token])).toEqual([["fields", "etl"]]);

      expect(await at("f", beforeAdd, { columns: ["_id", "n", "s", "x"] })).toEqual({ rows: [[1, 1, "a", 10], [2, 2, "b2", 20]], total: 2 });
      expect(await at("f", beforeDrop, { columns: ["_id", "x", "y"] })).toEqual({ rows: [[1, 10, "y1"], [2, 20, null]], total: 2 });
      expect(await at("f", beforeDrop, { columns: ["_id"], filters: [{ op: "gte", field: "x", value: 15 }] })).toEqual({ rows: [[2]], total: 1 });
      expect(await at("f", beforeRetype, { columns: ["_id", "s", "y"] })).toEqual({ rows: [[1, "a", "y1"], [2, "b2", null]], total: 2 });
      expect(await at("f", retyped, { columns: ["_id", "x"] })).toEqual({ rows: [[1, null], [2, null]], total: 2 });
      // q as of then reads the dropped field's words: in a row unchanged since (1), in one updated
      // since (2), over the row or by the field's name; a word written later is not found.
      const words = (text: string, field: string | null = null) => ({ columns: ["_id"], fts: [{ field, tree: parsePlain(text), rank: "rank" }] });
      expect(await at("f", beforeDrop, words("10"))).toEqual({ rows: [[1]], total: 1 });
      expect(await at("f", beforeDrop, words("b2 20"))).toEqual({ rows: [[2]], total: 1 });
      expect(await at("f", beforeDrop, words("20", "x"))).toEqual({ rows: [[2]], total: 1 });
      expect(await at("f", beforeDrop, words("20", "s"))).toEqual({ rows: [], total: 0 });
      expect(await at("f", beforeDrop, { ...words("20"), sort: [{ field: "rank", desc: true, nullsFirst: false }] })).toEqual({ rows: [[2]], total: 1 });
      expect(await at("f", retyped, words("20"))).toEqual({ rows: [], total: 0 });
      expect(await at("f", beforeRetype, words("twenty"))).toEqual({ rows: [], total: 0 });
      expect((await engine.search(r, { ...cols, columns: ["_id", "x"] })).rows).toEqual([[1, null], [2, "twenty"]]);

      // A record's versions and the changes keep the dropped field's values, each with its list.
      const records = async (id: number) => (await engine.rowImages(r, { id }))?.images.map((i) => [i.from, i.record]);
      expect(await records(1)).toEqual([
        [beforeAdd - 1, { _id: 1, n: 1, s: "a", x: 10 }],
        [beforeDrop, { _id: 1, n: 1, s: "a", x: 10, y: "y1" }],
      ]);
      expect((await records(2))?.slice(1)).toEqual([
        [beforeAdd, { _id: 2, n: 2, s: "b2", x: 20 }],
        [retyped + 1, { _id: 2, n: 2, s: "b2", y: null, x: "twenty" }],
      ]);
      const changes = await engine.changes(r, beforeAdd - 1, null, 10);
      expect(changes.changes.map((c) => [c.version, c.id, c.old, c.record])).toEqual([
        [beforeAdd, 2, { _id: 2, n: 2, s: "b", x: 20 }, { _id: 2, n: 2, s: "b2", x: 20 }],
        [beforeDrop, 1, { _id: 1, n: 1, s: "a", x: 10, y: null }, { _id: 1, n: 1, s: "a", x: 10, y: "y1" }],
        [retyped + 1, 2, { _id: 2, n: 2, s: "b2", y: null, x: null }, { _id: 2, n: 2, s: "b2", y: null, x: "twenty" }],
      ]);

      // Once no kept version is before the drop, its list and column go; the rest reads as before.
      await pruneBefore(engine, new Date(Date.now() + 1000).toISOString());
      expect(await engine.fieldsAt(r, retyped + 1)).toBeUndefined();
      expect(await at("f", retyped + 1, { columns: ["_id", "s", "x"] })).toEqual({ rows: [[1, "a", null], [2, "b2", "twenty"]], total: 2 });
      await w.write("f", [{ _id: 1, s: "a2" }], "update");
      expect((await engine.rowImages((await engine.getResource("f"))!, { id: 1 }))?.images.map((i) => i.record.s)).toEqual(["a", "a2"]);
    });

    it("history: false keeps no images, and only the current version is readable", async () => {
      await engine.createResource({ ...meta("s"), history: false }, [{ id: "n", type: "int4" }, { id: "s", type: "text" }]);
      await engine.write("s", [{ n: 1, s: "a" }], "insert");
      await engine.write("s", [{ _id: 1, s: "b" }], "update");
      await engine.deleteRows("s", [{ op: "eq", field: "n", value: 1 }]);
      const st = await state("s");
      expect(st).toMatchObject({ enabled: false, oldest: st.version });
      expect(await engine.historySize((await engine.getResource("s"))!)).toMatchObject({ rows: 0 });
    });
  });
});
