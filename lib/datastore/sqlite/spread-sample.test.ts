import { column } from "../catalog-row";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "../../config";
import { openEngine } from "../open";
import { mustGet, type Internal } from "./catalog";
import { openReader, type Conn } from "./connection";
import { attachFor } from "./groups";
import { spreadSample } from "./spread-sample";
import { quoteIdent as q } from "./sql";

const tempFile = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), "spread-sample-")), "s.db");

describe("spreadSample", () => {
  // 300 picks of 7200 rows: stretches of 24 rows, so evenly spaced picks would all land on the
  // same parity and the same hour, and see one value of each column.
  const ROWS = 7200;
  const PERIOD = 24;
  const N = 300;
  let file: string;
  let c: Conn;
  let r: Internal;

  const ids = (n = N, conn = c) => JSON.parse(spreadSample(conn, r, n)!.params[0] as string) as number[];
  /** The picked rows' values of `field`, read through the sample's own condition. */
  const picked = (field: string) => {
    const s = spreadSample(c, r, N)!;
    return c.db.prepare(`SELECT ${q(column(r, field).column)} FROM ${q(r.table)} AS t WHERE ${s.sql} ORDER BY t._id`).pluck().all(...s.params) as unknown[];
  };

  beforeAll(async () => {
    file = tempFile();
    const engine = await openEngine({ file, readWorkers: 0 });
    await engine.createResource({ id: "p", name: "p", description: "", private: false }, [
      { id: "alt", type: "text" },
      { id: "hour", type: "int4" },
    ]);
    await engine.write("p", Array.from({ length: ROWS }, (_, k) => ({ alt: k % 2 ? "odd" : "even", hour: k % PERIOD })), "insert");
    await engine.close();
    c = openReader(file, config);
    r = mustGet(c, "p");
  });
  afterAll(() => c.db.close());

  it("sees every value of a column that repeats row by row, or every 24 rows", () => {
    const alt = picked("alt");
    const hour = picked("hour");
    expect(alt).toHaveLength(N);
    expect(new Set(alt)).toEqual(new Set(["even", "odd"]));
    expect(new Set(hour)).toEqual(new Set(Array.from({ length: PERIOD }, (_, h) => h)));
    // and not lopsided: each of the two values in at least a third of the picks
    for (const v of ["even", "odd"]) expect(alt.filter((x) => x === v).length).toBeGreaterThan(N / 3);
  });

  it("gives the same table the same sample, on any connection", () => {
    const first = ids();
    expect(ids()).toEqual(first);
    const other = openReader(file, config);
    attachFor(other, ["p"]); // the resource's group file (groups.ts)
    try {
      expect(ids(N, other)).toEqual(first);
    } finally {
      other.db.close();
    }
    expect(spreadSample(c, r, N)).toEqual({ sql: expect.any(String), params: [JSON.stringify(first)], picked: N });
  });

  it("answers null when the table is no bigger than the sample", () => {
    expect(spreadSample(c, r, ROWS)).toBeNull();
    expect(spreadSample(c, r, ROWS + 1)).toBeNull();
    expect(spreadSample(c, r, ROWS - 1)).not.toBeNull();
  });
});
