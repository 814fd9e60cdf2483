// Every field type through a real PostgreSQL column: a JSON value written with toParam reads
// back (through pgTypes) as the JSON value the SQLite engine answers for it (types.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CastError, fromStorage, toStorage, type TypeName } from "../types";
import { quoteIdent as q } from "./resource";
import { testDb, type TestDb } from "./reads-test-support";
import { columnType, parseArray, toParam } from "./values";

const CASES: [TypeName, unknown[]][] = [
  ["text", ["a", "", "x'y\"z\\", 5, true, { a: 1 }, "ünï ✓ 😀", "  spaced  ", null]],
  ["int2", [1, "42", 1.6, -32768, 32767, " 7 ", "", null]],
  ["int4", [0, -2147483648, 2147483647, "-12"]],
  ["int8", [9007199254740991, -9007199254740991, "123456789012"]],
  ["float4", [1.5, "2.25", -0.5, 0, "1e3"]],
  ["float8", [1.5, "2.25", 0.1, 1e-300, 123456.789, -1e21]],
  ["numeric", [1.5, "10.10", 1e20, "0.000001", -3]],
  ["bool", [true, false, "yes", "f", "1", "OFF"]],
  ["date", ["2020-01-02", "2020-1-2", "01/02/2020", "13/02/2020", "2020-01-02T10:00:00", "0001-01-01", "9999-12-31"]],
  ["time", ["10:00", "10:00:00", "23:59:59.5", "24:00:00", "7:05:09"]],
  ["timestamp", ["2020-01-02 03:04:05", "2020-01-02", "2020-01-02T03:04:05.678Z", "1999-12-31T23:59:59", "02/29/2000 12:00"]],
  ["json", [{ b: 1, a: [1, 2, { c: null }] }, [1, "x"], "str", 5, true, 1.25, { "ü": "✓" }]],
  ["_text", [["a", "b,c", 'q"uote', "", null, "NULL", "back\\slash", " sp ", "{}"], [], ["x"]]],
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

let db: TestDb;

beforeAll(async () => {
  db = await testDb();
});
afterAll(async () => {
  await db?.close();
});

describe("values: JSON in, the SQLite engine's JSON out", () => {
  for (const [type, values] of CASES) {
    it(`${type} (${columnType(type)})`, async () => {
      const table = `v_${type.replace("_", "a_")}`;
      await db.pool.query(`CREATE TABLE ${q(table)} (n int, v ${columnType(type)})`);
      for (const [n, v] of values.entries()) await db.pool.query(`INSERT INTO ${q(table)} VALUES ($1, $2)`, [n, toParam(type, v)]);
      const { rows } = await db.pool.query<{ v: unknown }>(`SELECT v FROM ${q(table)} ORDER BY n`);
      expect(rows.map((r) => r.v)).toEqual(values.map((v) => fromStorage(type, toStorage(type, v))));
    });
  }

  it("refuses what types.ts refuses, with its CastError", () => {
    const bad: [TypeName, unknown][] = [
      ["int4", "1.5"],
      ["int2", 40000],
      ["bool", "maybe"],
      ["date", "2020-02-30"],
      ["timestamp", "yesterday"],
      ["time", "25:00"],
      ["_int4", 5],
      ["_int4", ["x"]],
      ["float8", "1,5"],
    ];
    for (const [t, v] of bad) {
      expect(() => toParam(t, v), `${t} ${JSON.stringify(v)}`).toThrow(CastError);
      expect(() => toStorage(t, v)).toThrow(CastError);
    }
  });

  it("refuses a NUL in text, which PostgreSQL cannot store", () => {
    expect(() => toParam("text", "a\u0000b")).toThrow(CastError);
    expect(() => toParam("_text", ["a\u0000b"])).toThrow(CastError);
  });

  it("reads array literals with quotes, escapes, NULLs and nesting", () => {
    const s = (v: string) => v;
    expect(parseArray('{a,"b c","q\\"x","back\\\\",NULL,"NULL"}', s)).toEqual(["a", "b c", 'q"x', "back\\", null, "NULL"]);
    expect(parseArray("{}", s)).toEqual([]);
    expect(parseArray("{{1,2},{3,4}}", Number)).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(parseArray("[0:1]={7,8}", Number)).toEqual([7, 8]);
  });
});
