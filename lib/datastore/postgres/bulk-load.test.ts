// The PostgreSQL bulk load (COPY) against a real server (DATASTORE_DATABASE_URL; skipped without
// one): every type loaded equals the same value written by write(), full text included; a bad
// value names its row and field and leaves nothing; COPY's escapes; the GIN index dropped and
// rebuilt for a table made in the same transaction. Each run works in a schema of its own.
import { randomBytes } from "node:crypto";
import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "../../config";
import type { BulkLoad, DatastoreEngine, Field, SearchQuery } from "../engine";
import { DatastoreError } from "../errors";
import { parsePlain } from "../full-text";
import { toStorage, type TypeName } from "../types";
import { fieldEncoder } from "./copy-text";
import { openPostgresEngine, type PostgresEngine } from "./engine";

const url = process.env.DATASTORE_DATABASE_URL;
const schema = `t_bulk_${randomBytes(4).toString("hex")}`;
const meta = (id: string) => ({ id, name: id, description: "", private: false });
const everything = (columns: string[], limit = 1000): SearchQuery => ({
  filters: [],
  fts: [],
  columns,
  sort: [{ field: "_id", desc: false, nullsFirst: false }],
  distinct: false,
  limit,
  offset: 0,
  includeTotal: true,
});

/** Values per type, the awkward ones included (as values.test.ts has them for write()). */
const CASES: [TypeName, unknown[]][] = [
  ["text", ["a", "", "x'y\"z\\", 5, true, { a: 1 }, "ünï ✓ 😀", "  spaced  ", "tab\there", "new\nline", "cr\rlf\r\n", "\\N", "back\\slash\\", "\\t literal", null]],
  ["int2", [1, "42", 1.6, -32768, 32767, " 7 ", "", null]],
  ["int4", [0, -2147483648, 2147483647, "-12"]],
  ["int8", [9007199254740991, -9007199254740991, "123456789012"]],
  ["float4", [1.5, "2.25", -0.5, 0, "1e3", 3.4e38, 1e-40]],
  ["float8", [1.5, "2.25", 0.1, 1e-300, 123456.789, -1e21, 5e-324]],
  ["numeric", [1.5, "10.10", 1e20, "0.000001", -3, 1e300]],
  ["bool", [true, false, "yes", "f", "1", "OFF"]],
  ["date", ["2020-01-02", "2020-1-2", "01/02/2020", "13/02/2020", "2020-01-02T10:00:00", "0001-01-01", "9999-12-31"]],
  ["time", ["10:00", "10:00:00", "23:59:59.5", "24:00:00", "7:05:09"]],
  ["timestamp", ["2020-01-02 03:04:05", "2020-01-02", "2020-01-02T03:04:05.678Z", "1999-12-31T23:59:59", "02/29/2000 12:00"]],
  ["json", [{ b: 1, a: [1, 2, { c: null }] }, [1, "x"], "str", 5, true, 1.25, { "ü": "✓" }, { "t\tab": "new\nline", "q\"": "back\\slash" }, "\u0000 nul in json"]],
  ["_text", [["a", "b,c", 'q"uote', "", null, "NULL", "back\\slash", " sp ", "{}", "tab\tnew\nline", "\\N", "ü😀"], [], ["x"]]],
  ["_int2", [[1, -2]]],
  ["_int4", [[1, 2, null], [1.4, "3"]]],
  ["_int8", [[9007199254740991]]],
  ["_float4", [[1.5, -2]]],
  ["_float8", [[1.5, -2, 0.1]]],
  ["_numeric", [[1.5, "2.50"]]],
  ["_bool", [[true, false, null, "yes"]]],
  ["_date", [["2020-01-02", "2020-1-3"]]],
  ["_time", [["10:00", "23:59:59.25"]]],
  ["_timestamp", [["2020-01-02 03:04:05", "2020-01-02"]]],
];

async function caught(p: Promise<unknown>): Promise<DatastoreError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof DatastoreError) return e;
    throw e;
  }
  throw new Error("expected a DatastoreError");
}

describe("COPY text fields", () => {
  it("escapes what COPY's text format reads specially, and quotes every array element", () => {
    expect(fieldEncoder("text")("a\tb\nc\rd\\e")).toBe("a\\tb\\nc\\rd\\\\e");
    expect(fieldEncoder("text")(null)).toBe("\\N");
    expect(fieldEncoder("text")("\\N")).toBe("\\\\N");
    expect(fieldEncoder("_text")(["a", null, 'q"', "b\\c", "NULL"])).toBe('{"a",NULL,"q\\\\"","b\\\\\\\\c","NULL"}');
    expect(fieldEncoder("bool")("yes")).toBe("t");
    expect(fieldEncoder("timestamp")("2020-01-02 03:04")).toBe("2020-01-02T03:04:00");
    expect(fieldEncoder("json")({ a: "x\ny" })).toBe('{"a":"x\\\\ny"}');
  });

  it("takes its fast paths only where they give what toStorage gives", () => {
    const general = (t: TypeName, v: string) => {
      try {
        const s = toStorage(t, v);
        return s === null ? "\\N" : String(s);
      } catch (e) {
        return `refused: ${(e as Error).message}`;
      }
    };
    const encoded = (t: TypeName, v: string) => {
      try {
        return fieldEncoder(t)(v);
      } catch (e) {
        return `refused: ${(e as Error).message}`;
      }
    };
    const d2 = fc.integer({ min: 0, max: 99 }).map((n) => String(n).padStart(2, "0"));
    const year = fc.integer({ min: 1, max: 9999 }).map((n) => String(n).padStart(4, "0"));
    const date = fc.tuple(year, d2, d2).map(([y, m, d]) => `${y}-${m}-${d}`);
    const timestamp = fc.tuple(date, d2, d2, d2).map(([d, h, m, s]) => `${d}T${h}:${m}:${s}`);
    const integer = fc.oneof(fc.integer().map(String), fc.stringMatching(/^[-+]?0{0,2}\d{1,17}$/), fc.constantFrom("-0", "0", "00", " 5", "1e3", ""));
    fc.assert(
      fc.property(integer, date, timestamp, (i, d, ts) => {
        for (const t of ["int2", "int4", "int8"] as const) expect(encoded(t, i)).toBe(general(t, i));
        expect(encoded("date", d)).toBe(general("date", d));
        expect(encoded("timestamp", ts)).toBe(general("timestamp", ts));
      }),
      { numRuns: 3000 },
    );
  });

  it("refuses what write() refuses, with the same message", () => {
    expect(() => fieldEncoder("int4")("x1")).toThrow('invalid input syntax for type integer: "x1"');
    expect(() => fieldEncoder("text")("a\u0000b")).toThrow("0x00");
    expect(() => fieldEncoder("date")("0000-01-01")).toThrow('date/time field value out of range: "0000-01-01"');
    expect(() => fieldEncoder("float4")(1e39)).toThrow('"1e+39" is out of range for type real');
    expect(() => fieldEncoder("_float4")([1, 1e-50])).toThrow('"1e-50" is out of range for type real');
  });
});

describe.skipIf(!url)("PostgreSQL bulk load", () => {
  let engine: PostgresEngine;
  let raw: pg.Pool;

  beforeAll(async () => {
    engine = await openPostgresEngine({ url: url!, schema, poolSize: 4, limits: config });
    raw = new pg.Pool({ connectionString: url, max: 2, options: `-c search_path="${schema}"` });
  });
  afterAll(async () => {
    await engine?.close();
    await raw?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await raw?.end();
  });

  const tableOf = async (id: string) => (await raw.query<{ t: string }>("SELECT table_name AS t FROM datastore_resources WHERE id = $1", [id])).rows[0].t;
  const rowsOf = async (id: string, columns: string[]) => (await engine.search((await engine.getResource(id))!, everything(columns))).rows;
  const indexesOf = async (id: string) =>
    (await raw.query<{ n: string }>("SELECT indexname AS n FROM pg_indexes WHERE schemaname = $1 AND tablename = $2 ORDER BY 1", [schema, await tableOf(id)])).rows.map((r) => r.n);

  /** One load inside its own transaction, as the importer runs it. */
  async function load(id: string, fields: string[], batches: unknown[][][], tx?: (tx: DatastoreEngine) => Promise<void>): Promise<number> {
    return engine.transaction(async (t) => {
      await tx?.(t);
      const l: BulkLoad = await t.bulkLoad(id, fields);
      for (const b of batches) await l.append(b);
      while ((await l.index(10)) > 0);
      return l.finish();
    });
  }

  it("loads every type as write() writes it, full text included", async () => {
    const fields: Field[] = CASES.map(([t], i) => ({ id: `f${i}_${t}`, type: t }));
    const width = Math.max(...CASES.map(([, v]) => v.length));
    const records = Array.from({ length: width }, (_, r) => Object.fromEntries(CASES.map(([, values], i) => [fields[i].id, values[r] ?? null])));
    for (const [via, id] of [["write", "types-w"], ["copy", "types-c"]]) {
      await engine.createResource(meta(id), fields);
      if (via === "write") await engine.write(id, records, "insert");
      else expect(await load(id, fields.map((f) => f.id), [records.map((rec) => fields.map((f) => rec[f.id]))])).toBe(width);
    }
    const ids = fields.map((f) => f.id);
    const written = await rowsOf("types-w", ids);
    const copied = await rowsOf("types-c", ids);
    expect(copied).toEqual(written);
    expect(copied).toHaveLength(width);
    const text = async (id: string) => (await raw.query<{ t: string }>(`SELECT "_full_text"::text AS t FROM "${await tableOf(id)}" ORDER BY "_id"`)).rows.map((r) => r.t);
    expect(await text("types-c")).toEqual(await text("types-w"));
    expect((await engine.getResource("types-c"))!.rowCount).toBe(width);
  });

  it("fills full text alike by UPDATEs after COPY (bulkFullText: update), and turns the trigger back on", async () => {
    const other = await openPostgresEngine({ url: url!, schema, poolSize: 2, limits: config, bulkFullText: "update" });
    try {
      const fields: Field[] = [{ id: "city", type: "text" }, { id: "n", type: "int4" }];
      const rows = [["Portland harbour", 1], ["Seattle docks", 2]];
      const leftAfterOne: Record<string, number> = {};
      for (const [e, id] of [[engine, "ft-trigger"], [other, "ft-update"]] as const) {
        await e.createResource(meta(id), fields);
        await e.transaction(async (t) => {
          const l = await t.bulkLoad(id, ["city", "n"]);
          await l.append(rows);
          leftAfterOne[id] = await l.index(1);
          await l.finish();
        });
      }
      // Only the "update" mode fills the text after COPY: one row of two done, one left.
      expect(leftAfterOne).toEqual({ "ft-trigger": 0, "ft-update": 1 });
      const text = async (id: string) => (await raw.query<{ t: string }>(`SELECT "_full_text"::text AS t FROM "${await tableOf(id)}" ORDER BY "_id"`)).rows.map((r) => r.t);
      expect(await text("ft-update")).toEqual(await text("ft-trigger"));
      expect((await text("ft-update"))[0]).toContain("portland");
      // The trigger is on again: a row written afterwards gets its text too.
      await other.write("ft-update", [{ city: "Tacoma", n: 3 }], "insert");
      expect((await text("ft-update"))[2]).toContain("tacoma");
    } finally {
      await other.close();
    }
  });

  it("fills full text by UPDATEs in the resource's language, as its trigger does", async () => {
    const other = await openPostgresEngine({ url: url!, schema, poolSize: 2, limits: config, bulkFullText: "update" });
    try {
      const rows = [["Les chevaux de l'élève"], ["Un cheval"]];
      for (const [e, id] of [[engine, "fr-trigger"], [other, "fr-update"]] as const) {
        await e.createResource({ ...meta(id), language: "french" }, [{ id: "t", type: "text" }]);
        await e.transaction(async (t) => {
          const l = await t.bulkLoad(id, ["t"]);
          await l.append(rows);
          await l.finish();
        });
      }
      const text = async (id: string) => (await raw.query<{ t: string }>(`SELECT "_full_text"::text AS t FROM "${await tableOf(id)}" ORDER BY "_id"`)).rows.map((r) => r.t);
      expect(await text("fr-update")).toEqual(await text("fr-trigger"));
      expect(await text("fr-update")).toEqual(["'cheval':2 'elev':5 'le':1", "'cheval':2"]);
    } finally {
      await other.close();
    }
  });

  it("fills full text, rebuilds the GIN index of a table made in the same transaction, and keeps the trigger", async () => {
    const id = "fresh";
    const rows = Array.from({ length: 2500 }, (_, i) => [i, i % 5 === 0 ? "Portland harbour" : "Seattle\tdocks", `line ${i}\nnext`]);
    const added = await load(id, ["n", "city", "note"], [rows.slice(0, 1000), rows.slice(1000)], async (tx) => {
      await tx.createResource(meta(id), [
        { id: "n", type: "int4" },
        { id: "city", type: "text" },
        { id: "note", type: "text" },
      ]);
    });
    expect(added).toBe(2500);
    const table = await tableOf(id);
    expect(await indexesOf(id)).toContain(`${table}_fts`);
    const r = (await engine.getResource(id))!;
    expect(r.rowCount).toBe(2500);
    const portland = await engine.search(r, { ...everything(["n"], 0), fts: [{ field: null, tree: parsePlain("portland"), rank: "rank" }] });
    expect(portland.total).toBe(500);
    // The row trigger still keeps full text for later writes.
    await engine.write(id, [{ n: -1, city: "Ankh-Morpork" }], "insert");
    const later = await engine.search((await engine.getResource(id))!, { ...everything(["n"]), fts: [{ field: null, tree: parsePlain("morpork"), rank: "rank" }] });
    expect(later.rows).toEqual([[-1]]);
    const trig = await raw.query("SELECT tgenabled FROM pg_trigger WHERE tgrelid = $1::regclass AND NOT tgisinternal", [`"${table}"`]);
    expect(trig.rows).toEqual([{ tgenabled: "O" }]);
    expect((await rowsOf(id, ["city", "note"]))[1]).toEqual(["Seattle\tdocks", "line 1\nnext"]);
  });

  it("appends to a table with rows: ids and full text only for the new rows", async () => {
    const id = "append";
    await engine.createResource(meta(id), [
      { id: "n", type: "int4" },
      { id: "w", type: "text" },
    ]);
    await engine.write(id, [{ n: 1, w: "before" }], "insert");
    expect(await load(id, ["w"], [[["appended one"], ["appended two"]]])).toBe(2);
    expect(await rowsOf(id, ["_id", "n", "w"])).toEqual([
      [1, 1, "before"],
      [2, null, "appended one"],
      [3, null, "appended two"],
    ]);
    const r = (await engine.getResource(id))!;
    expect(r.rowCount).toBe(3);
    expect((await engine.search(r, { ...everything(["_id"]), fts: [{ field: null, tree: parsePlain("appended"), rank: "rank" }] })).rows).toEqual([[2], [3]]);
  });

  it("names the row and field of a bad value, and a failed load leaves nothing", async () => {
    const id = "bad";
    await engine.createResource(meta(id), [
      { id: "n", type: "int4" },
      { id: "d", type: "date" },
    ]);
    await engine.write(id, [{ n: 1, d: "2020-01-01" }], "insert");
    const table = await tableOf(id);
    const before = await raw.query(`SELECT count(*)::int AS c FROM "${table}"`);
    const good = Array.from({ length: 3000 }, (_, i) => [i, "2021-02-03"]);
    for (const [bad, field, message] of [
      [["x1", "2021-02-03"], "n", 'invalid input syntax for type integer: "x1"'],
      [[5, "0000-01-01"], "d", 'date/time field value out of range: "0000-01-01"'],
    ] as const) {
      const batch = good.map((r, i) => (i === 1234 ? [...bad] : r));
      const e = await caught(load(id, ["n", "d"], [good, batch]));
      expect(e.details).toMatchObject({ records_row: 1234, field, records: [message] });
    }
    expect(await raw.query(`SELECT count(*)::int AS c FROM "${table}"`)).toMatchObject({ rows: before.rows });
    expect((await engine.getResource(id))!.rowCount).toBe(1);
    // A resource made in the same transaction is gone with the load.
    await expect(
      load("bad-new", ["n"], [[[1]], [["nope"]]], async (tx) => {
        await tx.createResource(meta("bad-new"), [{ id: "n", type: "int4" }]);
      }),
    ).rejects.toThrow(/nope/);
    expect(await engine.getResource("bad-new")).toBeUndefined();
  });

  it("refuses a value as write() does, message for message", async () => {
    const id = "same-errors";
    await engine.createResource(meta(id), [
      { id: "r", type: "float4" },
      { id: "t", type: "text" },
      { id: "a", type: "_int4" },
    ]);
    for (const [field, value] of [
      ["r", 1e39],
      ["r", "abc"],
      ["t", "nul\u0000"],
      ["a", "not an array"],
      ["a", [1, "x"]],
    ] as const) {
      const viaWrite = await caught(engine.write(id, [{ [field]: value }], "insert"));
      const viaCopy = await caught(load(id, [field], [[[value]]]));
      expect(viaCopy.details.records).toEqual(viaWrite.details.records);
      expect(viaCopy.details).toMatchObject({ records_row: 0, field });
    }
  });

  it("finds the row of a duplicate key", async () => {
    const id = "keyed";
    await engine.createResource(meta(id), [{ id: "k", type: "text" }]);
    await engine.setPrimaryKey(id, ["k"]);
    await engine.write(id, [{ k: "a" }], "insert");
    const e = await caught(load(id, ["k"], [[["b"], ["c"]], [["d"], ["a"], ["e"]]]));
    expect(e.details).toMatchObject({ records_row: 1, records: [`duplicate key value violates unique constraint "${id}_pkey"`] });
    expect(await rowsOf(id, ["k"])).toEqual([["a"]]);
  });

  it("a failure the server reports for an earlier batch still fails the load", async () => {
    const id = "checked";
    await engine.createResource(meta(id), [{ id: "n", type: "int4" }]);
    await raw.query(`ALTER TABLE "${await tableOf(id)}" ADD CONSTRAINT small CHECK (c1 < 100)`);
    await expect(load(id, ["n"], [[[1], [500]], [[2]]])).rejects.toThrow(/small/);
    expect(await rowsOf(id, ["n"])).toEqual([]);
  });
});
