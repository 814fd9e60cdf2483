// The Parquet writer's row groups and conversions, read back with hyparquet (not the writer's
// library): a group ends at its share of values or of text, and timestamps far from 1970 keep
// their microseconds.
import { parquetMetadata, parquetReadObjects } from "hyparquet";
import { describe, expect, it } from "vitest";
import type { ColumnInfo } from "./formats";
import { groupRows, parquetWriter } from "./parquet";

function fileOf(cols: ColumnInfo[], chunks: unknown[][][]): ArrayBuffer {
  const file = parquetWriter(cols);
  const bytes = Buffer.concat([file.head(), ...chunks.map((c) => file.rows(c)), file.tail()]);
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

async function write(cols: ColumnInfo[], chunks: unknown[][][]) {
  const file = fileOf(cols, chunks);
  return { meta: parquetMetadata(file), rows: (await parquetReadObjects({ file })) as Record<string, unknown>[] };
}

describe("parquetWriter", () => {
  it("a row group holds about the same number of values however many columns; never under the engine's chunk", async () => {
    expect(groupRows(12) * 12).toBeGreaterThan(groupRows(1) * 0.99);
    expect(groupRows(2)).toBe(groupRows(1) / 2);
    expect(groupRows(10_000)).toBe(1000);
    const cols: ColumnInfo[] = [
      { id: "a", type: "int4" },
      { id: "b", type: "int4" },
      { id: "c", type: "int4" },
    ];
    const per = groupRows(3);
    const total = per * 2 + 7;
    // chunks that do not line up with the groups: each group still holds exactly `per` rows
    const rows = Array.from({ length: total }, (_, i) => [i, -i, i % 7]);
    const chunks = Array.from({ length: Math.ceil(total / 999) }, (_, k) => rows.slice(k * 999, (k + 1) * 999));
    const { meta, rows: back } = await write(cols, chunks);
    expect(meta.row_groups.map((g) => Number(g.num_rows))).toEqual([per, per, 7]);
    expect(back.length).toBe(total);
    expect(back[per]).toEqual({ a: per, b: -per, c: per % 7 });
    expect(back[total - 1]).toEqual({ a: total - 1, b: 1 - total, c: (total - 1) % 7 });
  });

  it("long text ends a group before its share of values", async () => {
    const long = "x".repeat(100_000);
    const rows = Array.from({ length: 100 }, (_, i) => [i, `${i}${long}`]);
    const { meta, rows: back } = await write(
      [
        { id: "n", type: "int4" },
        { id: "t", type: "text" },
      ],
      [rows.slice(0, 50), rows.slice(50)],
    );
    const groups = meta.row_groups.map((g) => Number(g.num_rows));
    expect(groups.length).toBeGreaterThan(2);
    expect(groups.reduce((a, b) => a + b)).toBe(100);
    expect(Math.max(...groups)).toBeLessThan(50);
    expect(back.map((r) => r.t)).toEqual(rows.map((r) => r[1]));
  });

  it("a footer of many row groups (past the short list header) with each group's statistics", async () => {
    // 60 columns: groups of the least rows, so 17 of them
    const cols: ColumnInfo[] = Array.from({ length: 60 }, (_, j) => ({ id: `c${j}`, type: j % 2 ? "text" : "int8" }));
    const per = groupRows(cols.length);
    const rows = Array.from({ length: per * 16 + 3 }, (_, i) => cols.map((_, j) => (j % 2 ? `t${(i * 7) % 1000}` : i * j)));
    const { meta, rows: back } = await write(cols, [rows.slice(0, 5000), rows.slice(5000)]);
    expect(Number(meta.num_rows)).toBe(rows.length);
    expect(meta.created_by).toBe("Datastore Explorer");
    expect(meta.row_groups.map((g) => Number(g.num_rows))).toEqual([...Array(16).fill(per), 3]);
    meta.row_groups.forEach((g, k) => {
      const part = rows.slice(k * per, (k + 1) * per);
      const texts = part.map((r) => String(r[1])).sort();
      expect(g.columns[1].meta_data?.statistics).toMatchObject({ min_value: texts[0], max_value: texts.at(-1), null_count: 0n });
      expect(g.columns[2].meta_data?.statistics).toMatchObject({ min_value: BigInt(k * per * 2), max_value: BigInt((k * per + part.length - 1) * 2) });
    });
    expect(back.length).toBe(rows.length);
    expect(back[per * 16 + 2]).toEqual(Object.fromEntries(cols.map((c, j) => [c.id, j % 2 ? rows[per * 16 + 2][j] : BigInt(rows[per * 16 + 2][j] as number)])));
  });

  it("timestamps in microseconds, near 1970 and far from it, before it and after", async () => {
    const values = ["2001-02-03T04:05:06.000007", "2001-02-03 04:05:06", "1900-01-01T00:00:00.5", "1969-12-31T23:59:59.25", "2400-12-31T23:59:59.999999", "0900-06-01T12:00:00.000001", null];
    // each value twice: a text that comes again is converted once
    const file = fileOf([{ id: "ts", type: "timestamp" }], [[...values, ...values].map((v) => [v])]);
    const micros = (v: string) => {
      const [whole, fraction = ""] = v.replace(" ", "T").split(".");
      return BigInt(Date.parse(`${whole}Z`)) * 1000n + BigInt(fraction.padEnd(6, "0"));
    };
    const raw = await parquetReadObjects({ file, parsers: { timestampFromMicroseconds: (v: bigint) => v } as never });
    expect(raw.map((r) => r.ts)).toEqual([...values, ...values].map((v) => (v === null ? null : micros(v))));
    expect((await parquetReadObjects({ file }))[0].ts).toEqual(new Date("2001-02-03T04:05:06.000Z"));
  });
});
