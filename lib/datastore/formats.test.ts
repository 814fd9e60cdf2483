import { describe, expect, it } from "vitest";
import { encodeRecords, objectJson, type ColumnInfo } from "./formats";

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const cols: ColumnInfo[] = [
  { id: "_id", type: "int" },
  { id: "name", type: "text" },
  { id: "doc", type: "json" },
  { id: "2", type: "int4" },
];
const rows = [
  [1, 'a "quoted", é', { k: [1, null] }, 7],
  [2, null, null, null],
];

describe("encodeRecords", () => {
  it("objects: the same values as JSON.stringify, keys in the fields' order", () => {
    const out = text(encodeRecords("objects", cols, rows));
    expect(JSON.parse(out)).toEqual(rows.map((r) => ({ _id: r[0], name: r[1], doc: r[2], "2": r[3] })));
    expect(out.startsWith('[{"_id":1,"name":')).toBe(true); // a plain object would put "2" first
  });

  it("any number of rows, in every format", () => {
    for (const n of [0, 1, 499, 500, 501, 511, 512, 513, 1234]) {
      const many = Array.from({ length: n }, (_, i) => [i, `r${i}`]);
      expect(JSON.parse(text(encodeRecords("lists", cols.slice(0, 2), many)))).toEqual(many);
      expect(JSON.parse(text(encodeRecords("objects", cols.slice(0, 2), many)))).toEqual(many.map(([a, b]) => ({ _id: a, name: b })));
      expect(JSON.parse(text(encodeRecords("csv", cols.slice(0, 2), many)))).toBe(many.map(([a, b]) => `${a},${b}\n`).join(""));
      expect(JSON.parse(text(encodeRecords("tsv", cols.slice(0, 2), many)))).toBe(many.map(([a, b]) => `${a}\t${b}\n`).join(""));
    }
  });

  it("objects: a field named __proto__ is a key like any other; a missing value is null", () => {
    const odd: ColumnInfo[] = [{ id: "__proto__", type: "text" }, { id: "x", type: "text" }];
    expect(text(encodeRecords("objects", odd, [["p", undefined]]))).toBe('[{"__proto__":"p","x":null}]');
    expect(text(encodeRecords("objects", cols.slice(0, 2), [[1, undefined]]))).toBe('[{"_id":1,"name":null}]');
  });

  it("objects: a field asked for twice is one key; no rows is []", () => {
    expect(text(encodeRecords("objects", [cols[0], cols[1], cols[0]], [[1, "x", 1]]))).toBe('[{"_id":1,"name":"x"}]');
    expect(text(encodeRecords("objects", cols, []))).toBe("[]");
  });

  it("lists, and csv/tsv as one JSON string", () => {
    expect(JSON.parse(text(encodeRecords("lists", cols, rows)))).toEqual(rows);
    expect(JSON.parse(text(encodeRecords("csv", cols, [rows[0], [2, null, [], null]])))).toBe('1,"a ""quoted"", é","{""k"": [1, null]}",7\n2,,[],\n');
    expect(JSON.parse(text(encodeRecords("tsv", cols.slice(0, 2), [[1, "x,y"]])))).toBe("1\tx,y\n");
  });
});

describe("objectJson", () => {
  it("the same text by the object and by the key-by-key writer: order kept, a field twice once, skipped columns left out", () => {
    const plain: ColumnInfo[] = [
      { id: "_id", type: "int" },
      { id: "name", type: "text" },
      { id: "doc", type: "json" },
      { id: "name", type: "text" },
    ];
    // "2" makes the key-by-key writer take over (an object would put it first)
    const odd = [...plain, { id: "2", type: "int4" } as ColumnInfo];
    const row = [1, 'a "quoted", é', { k: [1, null] }, "ignored", undefined];
    expect(objectJson(plain)(row)).toBe('{"_id":1,"name":"a \\"quoted\\", é","doc":{"k":[1,null]}}');
    expect(objectJson(odd)(row)).toBe('{"_id":1,"name":"a \\"quoted\\", é","doc":{"k":[1,null]},"2":null}');
    expect(objectJson(odd, [0, 2])(row)).toBe('{"name":"a \\"quoted\\", é","2":null}');
    expect(objectJson(plain, [0, 1, 2])(row)).toBe("{}");
    expect(objectJson([{ id: "__proto__", type: "text" }])(["p"])).toBe('{"__proto__":"p"}');
  });
});
