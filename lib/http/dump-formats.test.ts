// The dump's formats people ask for (docs/api.md "Downloads"): ndjson, geojson, xlsx and parquet,
// each read back with a reader of its own (the workbook with exceljs, which did not write it;
// the parquet file with hyparquet, not hyparquet-writer) and compared, value by value and type
// by type, with datastore_search.
import ExcelJS from "exceljs";
import { parquetMetadata, parquetReadObjects } from "hyparquet";
import { beforeAll, describe, expect, it } from "vitest";
import { getDatastore } from "../datastore";
import { groupRows } from "../datastore/parquet";
import { freshDb } from "../test/api";
import { bulkInsert } from "../test/bulk-insert";
import { BOOK_ROWS, admin, createBooks, ok } from "../test/contract";
import { dispatch } from "../test/routes";

let BOOKS: string;
let PLACES: string;
let SHAPES: string;

const PLACE_ROWS = [
  { name: "Oslo", latitude: 59.91, longitude: 10.75, when: "2024-02-29" },
  { name: "Nowhere", latitude: null, longitude: null, when: null },
  { name: "Quito", latitude: -0.18, longitude: -78.47, when: "1999-12-31" },
];

beforeAll(async () => {
  freshDb();
  BOOKS = await createBooks();
  PLACES = ok(
    await admin("datastore_create", {
      resource: { name: "places" },
      fields: [
        { id: "name", type: "text" },
        { id: "latitude", type: "float8" },
        { id: "longitude", type: "numeric" },
        { id: "when", type: "date" },
      ],
      records: PLACE_ROWS,
    }),
  ).resource_id;
  SHAPES = ok(
    await admin("datastore_create", {
      resource: { name: "shapes" },
      fields: [
        { id: "label", type: "text" },
        { id: "geometry", type: "json" },
      ],
      records: [
        { label: "line", geometry: { type: "LineString", coordinates: [[0, 0], [1, 1]] } },
        { label: "none", geometry: null },
      ],
    }),
  ).resource_id;
});

async function dump(id: string, query: Record<string, string>) {
  const qs = new URLSearchParams(query).toString();
  const res = await dispatch(new Request(`http://localhost/datastore/dump/${encodeURIComponent(id)}?${qs}`));
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

async function searchRecords(id: string, params: Record<string, unknown> = {}) {
  return ok(await admin("datastore_search", { resource_id: id, limit: 32000, sort: "_id", ...params })).records as Record<string, unknown>[];
}

describe("ndjson", () => {
  it("one JSON object a line, as datastore_search's records", async () => {
    const res = await dump(BOOKS, { format: "ndjson" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${BOOKS}.ndjson"`);
    const text = res.bytes.toString("utf8");
    expect(text.endsWith("\n")).toBe(true);
    const lines = text.trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(lines).toEqual(BOOK_ROWS);
    expect(lines).toEqual(await searchRecords(BOOKS));
    // keys in the columns' order
    expect(Object.keys(lines[0])).toEqual(Object.keys(BOOK_ROWS[0]));
  });

  it("takes the dump's parameters", async () => {
    const res = await dump(BOOKS, { format: "ndjson", q: "tolstoy", fields: "title,year", sort: "year desc", limit: "1" });
    expect(res.bytes.toString("utf8")).toBe('{"title":"Anna Karenina","year":1877}\n');
    expect((await dump(BOOKS, { format: "ndjson", filters: JSON.stringify({ author: "nobody" }) })).bytes.length).toBe(0);
  });
});

describe("geojson", () => {
  it("points from the latitude and longitude fields, the rest as properties; no coordinates, no geometry", async () => {
    const res = await dump(PLACES, { format: "geojson" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/geo+json; charset=utf-8");
    const fc = JSON.parse(res.bytes.toString("utf8"));
    const records = await searchRecords(PLACES);
    expect(fc).toEqual({
      type: "FeatureCollection",
      features: records.map((r) => ({
        type: "Feature",
        geometry: r.latitude === null ? null : { type: "Point", coordinates: [r.longitude, r.latitude] },
        properties: { _id: r._id, name: r.name, when: r.when },
      })),
    });
    expect(fc.features[0].geometry.coordinates).toEqual([10.75, 59.91]);
  });

  it("a field of GeoJSON geometries as each feature's geometry", async () => {
    const fc = JSON.parse((await dump(SHAPES, { format: "geojson" })).bytes.toString("utf8"));
    expect(fc.features).toEqual([
      { type: "Feature", geometry: { type: "LineString", coordinates: [[0, 0], [1, 1]] }, properties: { _id: 1, label: "line" } },
      { type: "Feature", geometry: null, properties: { _id: 2, label: "none" } },
    ]);
  });

  it("lat and lon name the fields; a resource without coordinates is a 409 that says why", async () => {
    const named = JSON.parse((await dump(BOOKS, { format: "geojson", lat: "rating", lon: "year", fields: "title,rating,year", limit: "1" })).bytes.toString("utf8"));
    expect(named.features[0]).toEqual({ type: "Feature", geometry: { type: "Point", coordinates: [1869, 4.5] }, properties: { title: "War and Peace" } });
    const refused: [string, Record<string, string>][] = [
      [BOOKS, { format: "geojson" }],
      [BOOKS, { format: "geojson", lat: "title", lon: "year" }],
      [PLACES, { format: "geojson", fields: "name" }],
    ];
    for (const [id, query] of refused) {
      const res = await dump(id, query);
      expect(res.status).toBe(409);
      const body = JSON.parse(res.bytes.toString("utf8"));
      expect(body).toEqual({ help: expect.any(String), success: false, error: { __type: "Validation Error", format: [expect.stringMatching(/^geojson/)] } });
    }
  });
});

describe("xlsx", () => {
  async function workbook(id: string, query: Record<string, string> = {}) {
    const res = await dump(id, { format: "xlsx", ...query });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${id}.xlsx"`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.bytes as unknown as ArrayBuffer);
    return book.worksheets[0];
  }

  const cells = (sheet: ExcelJS.Worksheet) => {
    const out: unknown[][] = [];
    sheet.eachRow({ includeEmpty: true }, (row) => {
      out.push(Array.from({ length: sheet.columnCount }, (_, i) => row.getCell(i + 1).value));
    });
    return out;
  };

  it("typed cells, value for value as datastore_search gives them", async () => {
    const sheet = await workbook(BOOKS);
    const rows = cells(sheet);
    const records = await searchRecords(BOOKS);
    const header = Object.keys(records[0]);
    expect(rows[0]).toEqual(header);
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(rows.length).toBe(records.length + 1);
    records.forEach((r, i) => {
      const expected = header.map((k) => {
        const v = r[k];
        if (v === null || v === "") return null; // a spreadsheet has no empty text, only empty cells
        if (k === "updated") return new Date(`${v}Z`); // a timestamp as an Excel date
        if (k === "tags" || k === "meta") return JSON.stringify(v);
        return v;
      });
      expect(rows[i + 1], `row ${i + 1}`).toEqual(expected);
    });
    // types as a spreadsheet sees them
    const second = sheet.getRow(2);
    expect(typeof second.getCell(header.indexOf("year") + 1).value).toBe("number");
    expect(typeof second.getCell(header.indexOf("in_stock") + 1).value).toBe("boolean");
    expect(second.getCell(header.indexOf("updated") + 1).numFmt).toBe("yyyy-mm-dd hh:mm:ss");
  });

  it("dates as dates with their format; empty cells empty", async () => {
    const sheet = await workbook(PLACES);
    const rows = cells(sheet);
    expect(rows).toEqual([
      ["_id", "name", "latitude", "longitude", "when"],
      [1, "Oslo", 59.91, 10.75, new Date("2024-02-29T00:00:00Z")],
      [2, "Nowhere", null, null, null],
      [3, "Quito", -0.18, -78.47, new Date("1999-12-31T00:00:00Z")],
    ]);
    expect(sheet.getRow(2).getCell(5).numFmt).toBe("yyyy-mm-dd");
  });

  it("takes the dump's parameters", async () => {
    const rows = cells(await workbook(BOOKS, { q: "tolstoy", fields: "title,year", sort: "year desc" }));
    expect(rows).toEqual([
      ["title", "year"],
      ["Anna Karenina", 1877],
      ["War and Peace", 1869],
    ]);
  });

  it("past 1,048,576 rows (the header's and 1,048,575 more) a 409 before any byte is sent; under it with a limit", async () => {
    const id = ok(await admin("datastore_create", { resource: { name: "too long" }, fields: [{ id: "n", type: "int4" }] })).resource_id;
    const { engine } = await getDatastore();
    for (let start = 0; start < 1_048_576; start += 131_072) {
      await bulkInsert(engine, id, Array.from({ length: 131_072 }, (_, i) => ({ n: start + i })));
    }
    const res = await dump(id, { format: "xlsx" });
    expect(res.status).toBe(409);
    expect(JSON.parse(res.bytes.toString("utf8")).error).toEqual({
      __type: "Validation Error",
      format: ["xlsx: an Excel sheet holds at most 1,048,575 rows under its header, and this download has 1,048,576: narrow it (q, filters), set a limit, or choose csv"],
    });
    expect((await dump(id, { format: "xlsx", offset: "1", limit: "2" })).status).toBe(200);
    const narrowed = await dump(id, { format: "xlsx", filters: JSON.stringify({ n: [5, 6] }) });
    expect(narrowed.status).toBe(200);
  }, 120_000);
});

describe("parquet", () => {
  async function parquet(id: string, query: Record<string, string> = {}) {
    const res = await dump(id, { format: "parquet", ...query });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/vnd.apache.parquet");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${id}.parquet"`);
    const file = res.bytes.buffer.slice(res.bytes.byteOffset, res.bytes.byteOffset + res.bytes.byteLength) as ArrayBuffer;
    return { meta: parquetMetadata(file), rows: (await parquetReadObjects({ file })) as Record<string, unknown>[] };
  }

  it("typed columns, value for value as datastore_search gives them", async () => {
    const { meta, rows } = await parquet(BOOKS);
    const types = Object.fromEntries(meta.schema.slice(1).map((e) => [e.name, [e.type, e.logical_type?.type ?? e.converted_type ?? null]]));
    expect(types).toEqual({
      _id: ["INT64", null],
      title: ["BYTE_ARRAY", "STRING"],
      author: ["BYTE_ARRAY", "STRING"],
      year: ["INT32", null],
      rating: ["DOUBLE", null],
      in_stock: ["BOOLEAN", null],
      updated: ["INT64", "TIMESTAMP"],
      tags: ["BYTE_ARRAY", "JSON"],
      meta: ["BYTE_ARRAY", "JSON"],
      note: ["BYTE_ARRAY", "STRING"],
    });
    const records = await searchRecords(BOOKS);
    expect(rows.length).toBe(records.length);
    records.forEach((r, i) => {
      const expected = {
        ...r,
        _id: BigInt(r._id as number),
        updated: r.updated === null ? null : new Date(`${r.updated}Z`),
      };
      expect(rows[i], `row ${i + 1}`).toEqual(expected);
    });
  });

  it("dates, times (with their fraction), timestamps in microseconds, int8; row groups past the first", async () => {
    const id = ok(
      await admin("datastore_create", {
        resource: { name: "times" },
        fields: [
          { id: "d", type: "date" },
          { id: "t", type: "time" },
          { id: "ts", type: "timestamp" },
          { id: "big", type: "int8" },
        ],
        records: [
          { d: "2024-02-29", t: "13:45:10.5", ts: "2001-02-03T04:05:06", big: "9007199254740991" },
          { d: null, t: null, ts: null, big: null },
        ],
      }),
    ).resource_id;
    const { meta, rows } = await parquet(id);
    expect(meta.schema.find((e) => e.name === "t")?.logical_type).toEqual({ type: "TIME", isAdjustedToUTC: false, unit: "MICROS" });
    expect(meta.schema.find((e) => e.name === "ts")?.logical_type).toEqual({ type: "TIMESTAMP", isAdjustedToUTC: false, unit: "MICROS" });
    expect(rows[1]).toEqual({ _id: 2n, d: null, t: null, ts: null, big: null });
    expect(rows[0].d).toEqual(new Date("2024-02-29T00:00:00Z"));
    expect(rows[0].t).toBe(49_510_500_000n);
    expect(rows[0].big).toBe(9007199254740991n);
    // the column as stored: microseconds since 1970, not adjusted to UTC
    const raw = await parquetReadObjects({ file: (await dump(id, { format: "parquet" })).bytes.buffer as ArrayBuffer, utf8: true, columns: ["ts"], parsers: { timestampFromMicroseconds: (v: bigint) => v } as never });
    expect(raw[0].ts).toBe(981173106000000n);
    expect(ok(await admin("datastore_search", { resource_id: id })).records[0].ts).toBe("2001-02-03T04:05:06");
    const many = ok(await admin("datastore_create", { resource: { name: "many" }, fields: [{ id: "n", type: "int4" }] })).resource_id;
    const { engine } = await getDatastore();
    await bulkInsert(engine, many, Array.from({ length: 120_000 }, (_, i) => ({ n: i })));
    const big = await parquet(many, { fields: "n" });
    expect(big.meta.row_groups.length).toBe(Math.ceil(120_000 / groupRows(1)));
    expect(big.meta.row_groups.length).toBeGreaterThan(1);
    expect(big.rows.length).toBe(120_000);
    expect(big.rows[119_999]).toEqual({ n: 119_999 });
  }, 120_000);
});
