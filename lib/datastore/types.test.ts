// Unit tests for the type table of contract §2: declared → reported names, casts on the way
// in, PG text renderings on the way out, and CKAN's first-record type guessing.
import { describe, expect, it } from "vitest";
import { CastError, fromStorage, guessType, nativeType, resolveType, toStorage, toText, type TypeName } from "./types";

describe("resolveType", () => {
  it.each([
    ["text", "text"],
    ["int", "int4"],
    ["integer", "int4"],
    ["int4", "int4"],
    ["bigint", "int8"],
    ["int8", "int8"],
    ["smallint", "int2"],
    ["int2", "int2"],
    ["float", "float8"],
    ["float8", "float8"],
    ["double precision", "float8"],
    ["real", "float4"],
    ["float4", "float4"],
    ["numeric", "numeric"],
    ["decimal", "numeric"],
    ["bool", "bool"],
    ["boolean", "bool"],
    ["date", "date"],
    ["time", "time"],
    ["timestamp", "timestamp"],
    ["json", "json"],
    ["text[]", "_text"],
    ["_text", "_text"],
    ["int[]", "_int4"],
    ["_int4", "_int4"],
    ["int[2]", "_int4"],
    ["float8[]", "_float8"],
    ["timestamp[]", "_timestamp"],
    // case and spacing do not matter
    ["INT", "int4"],
    ["Double  Precision", "float8"],
    [" text ", "text"],
  ])("%j is reported as %j", (declared, reported) => {
    expect(resolveType(declared)).toBe(reported);
  });

  it.each([["INVALID"], ["int["], ["[]"], [""], ["uuid"], ["varchar(20)"], ["json[]"], ["_json"], ["text; drop table x"]])(
    "rejects %j",
    (declared) => {
      expect(resolveType(declared)).toBeNull();
    },
  );

  it.each([[null], [undefined], [5], [{}], [["text"]]])("rejects non-string %j", (declared) => {
    expect(resolveType(declared)).toBeNull();
  });

  it("gives PG's long names for datastore_info", () => {
    expect(nativeType("int4")).toBe("integer");
    expect(nativeType("timestamp")).toBe("timestamp without time zone");
    expect(nativeType("_text")).toBe("text[]");
    expect(nativeType("json")).toBe("nested");
    expect(nativeType("bool")).toBe("boolean");
  });
});

describe("toStorage", () => {
  it("keeps text and stringifies scalars", () => {
    expect(toStorage("text", "abc")).toBe("abc");
    expect(toStorage("text", "")).toBe("");
    expect(toStorage("text", 42)).toBe("42");
    expect(toStorage("text", 1.5)).toBe("1.5");
    expect(toStorage("text", true)).toBe("true");
  });

  it("stores absent and null as NULL", () => {
    for (const t of ["text", "int4", "bool", "date", "json", "_text"] as TypeName[]) {
      expect(toStorage(t, null)).toBeNull();
      expect(toStorage(t, undefined)).toBeNull();
    }
  });

  it('stores "" as NULL for every non-text column', () => {
    for (const t of ["int2", "int4", "int8", "float4", "float8", "numeric", "bool", "date", "time", "timestamp", "_text", "_int4"] as TypeName[]) {
      expect(toStorage(t, "")).toBeNull();
    }
  });

  it("casts integers from numbers and strings", () => {
    expect(toStorage("int4", 42)).toBe(42);
    expect(toStorage("int4", "42")).toBe(42);
    expect(toStorage("int4", " -7 ")).toBe(-7);
    expect(toStorage("int8", "9007199254740991")).toBe(9007199254740991);
    expect(toStorage("int2", 32767)).toBe(32767);
  });

  it("casts floats and numerics", () => {
    expect(toStorage("float8", 1.5)).toBe(1.5);
    expect(toStorage("float8", "1.5")).toBe(1.5);
    expect(toStorage("numeric", "9.99")).toBe(9.99);
    expect(toStorage("numeric", 10)).toBe(10);
    expect(toStorage("float4", "1e3")).toBe(1000);
  });

  it("casts the boolean words", () => {
    for (const w of ["true", "t", "yes", "y", "1", "on", "TRUE", " True "]) expect(toStorage("bool", w)).toBe(1);
    for (const w of ["false", "f", "no", "n", "0", "off", "FALSE"]) expect(toStorage("bool", w)).toBe(0);
    expect(toStorage("bool", true)).toBe(1);
    expect(toStorage("bool", false)).toBe(0);
  });

  it("rejects JSON 0/1 numbers into a bool column (a PG error)", () => {
    expect(() => toStorage("bool", 1)).toThrow(CastError);
    expect(() => toStorage("bool", 0)).toThrow(CastError);
  });

  it("normalises dates, timestamps and times", () => {
    expect(toStorage("date", "2012-05-25")).toBe("2012-05-25");
    expect(toStorage("date", "2012-5-3")).toBe("2012-05-03");
    expect(toStorage("timestamp", "2012-10-01")).toBe("2012-10-01T00:00:00");
    expect(toStorage("timestamp", "2012-10-01 02:43:00")).toBe("2012-10-01T02:43:00");
    expect(toStorage("timestamp", "2012-10-01T02:43:00")).toBe("2012-10-01T02:43:00");
    expect(toStorage("timestamp", "2012-10-01T02:43Z")).toBe("2012-10-01T02:43:00");
    expect(toStorage("timestamp", "2012-10-01T02:43:05.123+02:00")).toBe("2012-10-01T02:43:05");
    expect(toStorage("timestamp", "25/05/2012")).toBe("2012-05-25T00:00:00");
    expect(toStorage("time", "12:42")).toBe("12:42:00");
    expect(toStorage("time", "12:42:07")).toBe("12:42:07");
    expect(toStorage("time", "24:00")).toBe("24:00:00");
    expect(toStorage("time", "9:05:01.25")).toBe("09:05:01.25");
  });

  it("stores json as its JSON text and arrays as compact JSON", () => {
    expect(toStorage("json", { a: [1, 2] })).toBe('{"a":[1,2]}');
    expect(toStorage("json", "x")).toBe('"x"');
    expect(toStorage("json", 0)).toBe("0");
    expect(toStorage("_text", ["a", "b"])).toBe('["a","b"]');
    expect(toStorage("_text", [])).toBe("[]");
    expect(toStorage("_int4", ["1", 2])).toBe("[1,2]");
  });

  it.each<[TypeName, unknown]>([
    ["int4", "abc"],
    ["int4", "1.5"],
    ["int4", true],
    ["int4", { a: 1 }],
    ["int4", 2147483648],
    ["int2", 40000],
    ["int8", "99999999999999999999"],
    ["int4", Infinity],
    ["float8", "abc"],
    ["float8", true],
    ["numeric", "9,99"],
    ["bool", "maybe"],
    ["bool", [true]],
    ["date", "2012-02-30"],
    ["date", "yesterday"],
    ["date", 20120101],
    ["timestamp", "2012-10-01 25:00:00"],
    ["time", "noon"],
    ["time", "12:60"],
    ["time", "24:30"],
    ["time", "24:00:01"],
    ["_text", "a"],
    ["_int4", ["x"]],
    ["_int4", [[1]]],
  ])("%s rejects %j with a CastError", (t, value) => {
    expect(() => toStorage(t, value)).toThrow(CastError);
  });

  it("words the error as PostgreSQL does", () => {
    expect(() => toStorage("int4", "abc")).toThrow('invalid input syntax for type integer: "abc"');
  });
});

describe("fromStorage", () => {
  it("turns stored cells back into JSON values", () => {
    expect(fromStorage("bool", 1)).toBe(true);
    expect(fromStorage("bool", 0)).toBe(false);
    expect(fromStorage("_text", '["a"]')).toEqual(["a"]);
    expect(fromStorage("json", '{"a":1}')).toEqual({ a: 1 });
    expect(fromStorage("int8", 5n)).toBe(5);
    expect(fromStorage("int4", null)).toBeNull();
  });
});

describe("toText (csv/tsv cells)", () => {
  it("renders booleans as t/f", () => {
    expect(toText("bool", true)).toBe("t");
    expect(toText("bool", false)).toBe("f");
  });

  it("renders NULL scalars as null (an empty field)", () => {
    expect(toText("text", null)).toBeNull();
    expect(toText("int4", null)).toBeNull();
    expect(toText("bool", null)).toBeNull();
  });

  it("renders a NULL array or json cell as the word null", () => {
    expect(toText("_text", null)).toBe("null");
    expect(toText("json", null)).toBe("null");
  });

  it("renders arrays as compact JSON and json with Python's spacing", () => {
    expect(toText("_text", ["a", "b"])).toBe('["a","b"]');
    expect(toText("_int4", [])).toBe("[]");
    expect(toText("json", { a: [1, 2], b: { c: null } })).toBe('{"a": [1, 2], "b": {"c": null}}');
    expect(toText("json", "x")).toBe('"x"');
  });

  it("renders numbers, text and dates as they are", () => {
    expect(toText("int4", 42)).toBe("42");
    expect(toText("numeric", 9.99)).toBe("9.99");
    expect(toText("text", "")).toBe("");
    expect(toText("timestamp", "2012-10-01T02:43:00")).toBe("2012-10-01T02:43:00");
  });
});

describe("guessType (first record only, contract §2)", () => {
  it.each<[unknown, string]>([
    [{ a: 1 }, "json"],
    [[1, 2], "json"],
    [[], "json"],
    [42, "int"],
    [true, "int"], // Python quirk: bool is an int
    [false, "int"],
    [1.5, "float"],
    ["51", "integer"],
    ["-3", "integer"],
    ["1.5", "numeric"],
    [".5", "numeric"],
    ["2012-05-25", "timestamp"],
    ["2012-05-25 10:11:12", "timestamp"],
    ["2012-05-25T10:11:12", "timestamp"],
    ["2012-05-25T10:11:12Z", "timestamp"],
    ["25/05/2012", "timestamp"],
    ["05/25/2012", "timestamp"],
    ["25-05-2012", "timestamp"],
    ["05-25-2012", "timestamp"],
    ["hello", "text"],
    ["", "text"],
    [null, "text"],
    ["2012-13-45", "text"],
    ["13/25/2012", "text"],
  ])("%j → %s", (value, declared) => {
    expect(guessType(value)).toBe(declared);
  });

  it("guesses text for date-like strings outside CKAN's format list", () => {
    // CKAN tries strptime with a fixed list; minutes without seconds or zones other than Z fail.
    expect(guessType("2012-05-25 10:11")).toBe("text");
    expect(guessType("2012-05-25T10:11:12+02:00")).toBe("text");
    expect(guessType("2012-05-25T10:11:12.5")).toBe("text");
  });

  it("reports each guessed type under its PG name", () => {
    expect(resolveType(guessType(42))).toBe("int4");
    expect(resolveType(guessType(1.5))).toBe("float8");
    expect(resolveType(guessType("51"))).toBe("int4");
    expect(resolveType(guessType("1.5"))).toBe("numeric");
    expect(resolveType(guessType({}))).toBe("json");
    expect(resolveType(guessType("2012-05-25"))).toBe("timestamp");
  });
});
