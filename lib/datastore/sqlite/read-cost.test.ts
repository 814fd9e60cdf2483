import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "../../config";
import type { DatastoreEngine, Filter, SearchQuery } from "../engine";
import { parsePlain } from "../full-text";
import { openEngine } from "../open";
import { bulkInsert } from "../../test/bulk-insert";
import { mustGet } from "./catalog";
import { openReader, type Conn } from "./connection";
import { judge, observe } from "./read-cost";
import { search } from "./search";
import { sizes } from "./statistics";

const ROWS = 60_000;
const base: SearchQuery = { filters: [], fts: [], columns: ["_id", "n", "k", "u"], sort: [], distinct: false, limit: 100, offset: 0, includeTotal: true };
const by = (field: string, desc = false) => [{ field, desc, nullsFirst: !desc }];
const eq = (field: string, value: unknown): Filter => ({ op: "in", field, values: [value] });
const words = (q: string) => [{ field: null, tree: parsePlain(q), rank: "rank" }];

describe("read cost: cheap or expensive, from SQLite's plan", () => {
  let file: string;
  let engine: DatastoreEngine;
  let c: Conn;
  const r = () => mustGet(c, "costs");
  const cost = (query: Partial<SearchQuery>) => judge(c, r(), { op: "search", query: { ...base, ...query } }).cost;

  beforeAll(async () => {
    file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cost-")), "cost.db");
    engine = await openEngine({ file, readWorkers: 0 });
    await engine.createResource({ id: "costs", name: "costs", description: "", private: false }, [
      { id: "n", type: "int4" }, // indexed, unique
      { id: "k", type: "text" }, // indexed, 100 values of 600 rows
      { id: "u", type: "int4" }, // not indexed
      { id: "w", type: "text" }, // full text: "omega" in 3,000 rows, "alpha" in the rest
    ]);
    await bulkInsert(engine, "costs", Array.from({ length: ROWS }, (_, i) => ({ n: i, k: `k${i % 100}`, u: (i * 7919) % ROWS, w: i % 20 === 0 ? "omega" : "alpha" })));
    await engine.setIndexes("costs", [["n"], ["k"]]);
    await engine.createResource({ id: "small", name: "small", description: "", private: false }, [{ id: "u", type: "int4" }]);
    await engine.write("small", Array.from({ length: 500 }, (_, i) => ({ u: i })), "insert");
    c = openReader(file, config);
  });

  afterAll(async () => {
    c.db.close();
    await engine.close();
  });

  it("calls index-backed, bounded pages cheap", () => {
    expect(cost({})).toBe("cheap"); // the first page; the total from the catalog
    expect(cost({ filters: [eq("k", "k7")] })).toBe("cheap"); // an index range, counted from the index
    expect(cost({ sort: by("n", true), includeTotal: false })).toBe("cheap"); // read in index order
    expect(cost({ filters: [{ op: "gt", field: "_id", value: 30_000 }], sort: by("_id"), includeTotal: false })).toBe("cheap"); // a keyset page
    expect(cost({ filters: [eq("k", "k7")], sort: by("u") })).toBe("cheap"); // sorts 600 rows
    expect(cost({ offset: 40_000, sort: by("_id"), includeTotal: false })).toBe("cheap"); // a dense offset seeks
    expect(cost({ limit: 1000, includeTotal: false })).toBe("cheap");
    expect(cost({ filters: [eq("k", "k7"), { op: "gt", field: "u", value: 5 }], limit: 0, includeTotal: false })).toBe("cheap"); // no rows asked for
  });

  it("calls scans, big sorts, unindexed counts and big pages expensive", () => {
    expect(cost({ sort: by("u", true), includeTotal: false })).toBe("expensive"); // sorts the table
    expect(cost({ filters: [eq("u", 5)], includeTotal: false })).toBe("expensive"); // scans for its rows
    expect(cost({ filters: [eq("k", "k7"), eq("u", 5)] })).toBe("expensive"); // a total no index answers
    expect(cost({ limit: 5000, includeTotal: false })).toBe("expensive");
    expect(cost({ offset: 20_000, sort: by("n"), includeTotal: false })).toBe("expensive"); // steps over 20,000 rows
    const tenKeys: Filter = { op: "in", field: "k", values: Array.from({ length: 10 }, (_, i) => `k${i}`) };
    expect(cost({ filters: [tenKeys], sort: by("u") })).toBe("expensive"); // sorts 6,000 rows
    expect(cost({ columns: ["k"], distinct: true, includeTotal: false })).toBe("expensive");
  });

  it("calls a read cheap whose exact total this connection counted already for the version", () => {
    const q = { filters: [eq("k", "k8"), eq("u", 5)] };
    expect(cost(q)).toBe("expensive"); // a total no index answers
    search(c, r(), { ...base, ...q });
    expect(cost(q)).toBe("cheap");
    expect(cost({ ...q, totalEstimationThreshold: 1000 })).toBe("expensive"); // estimated again, not read from memory
  });

  it("calls a best-first page cheap when its matches are few or this connection ranked them already", () => {
    const rare = { fts: words("omega"), sort: [{ field: "rank", desc: true, nullsFirst: false }], columns: ["_id", "rank"] };
    const common = { ...rare, fts: words("alpha") };
    expect(cost(rare)).toBe("cheap");
    expect(cost(common)).toBe("expensive");
    search(c, r(), { ...base, ...common });
    expect(cost(common)).toBe("cheap");
    // Full text ANDed with a filter visits every match.
    expect(cost({ ...common, filters: [eq("u", 5)] })).toBe("expensive");
  });

  it("judges value counts, histograms and sizes by the rows they read", () => {
    const vc = (filters: Filter[]) => judge(c, r(), { op: "valueCounts", query: { ...base, filters }, field: "u" }).cost;
    expect(vc([])).toBe("expensive"); // every row
    expect(vc([eq("k", "k7")])).toBe("cheap"); // 600 rows through the index
    expect(vc([eq("u", 5)])).toBe("expensive"); // a scan
    expect(judge(c, r(), { op: "histogram", query: base }).cost).toBe("expensive");
    expect(judge(c, r(), { op: "stats" }).cost).toBe("expensive");
    sizes(c, r());
    expect(judge(c, r(), { op: "stats" }).cost).toBe("cheap"); // kept from the call before
  });

  it("calls any read of a small table cheap, unless its page is big", () => {
    const small = mustGet(c, "small");
    expect(judge(c, small, { op: "search", query: { ...base, columns: ["u"], filters: [eq("u", 5)], sort: by("u", true) } }).cost).toBe("cheap");
    expect(judge(c, small, { op: "histogram", query: base }).cost).toBe("cheap");
  });

  it("remembers a read judged cheap that ran slow twice, and queues its kind with the expensive ones", () => {
    const query = { ...base, filters: [eq("k", "k9")] };
    const verdict = judge(c, r(), { op: "search", query });
    expect(verdict.cost).toBe("cheap");
    observe(c, verdict.shape, 500);
    expect(judge(c, r(), { op: "search", query }).cost).toBe("cheap"); // once can be a busy machine
    observe(c, verdict.shape, 500);
    expect(judge(c, r(), { op: "search", query }).cost).toBe("expensive");
    // The same kind of read with other values has the same shape.
    expect(judge(c, r(), { op: "search", query: { ...query, filters: [eq("k", "k3")] } }).cost).toBe("expensive");
  });
});
