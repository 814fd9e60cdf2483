import { describe, expect, it } from "vitest";
import type { RecordVersion } from "@/lib/api-client";
import { historyLines, newestFirst } from "./history-lines";

const base = { time: "2026-11-27T10:00:00Z", token: "t" };

describe("historyLines", () => {
  it("an update: each changed field, old and new, in the resource's order", () => {
    const v: RecordVersion = {
      ...base,
      version: 3,
      kind: "update",
      record: { _id: 1, b: 2, a: "x" },
      changed: { b: { old: 1, new: 2 }, zz: { old: null, new: true }, a: { old: "w", new: "x" } },
    };
    expect(historyLines(v, ["a", "b"])).toEqual([
      { field: "a", old: "w", new: "x", hasOld: true },
      { field: "b", old: 1, new: 2, hasOld: true },
      { field: "zz", old: null, new: true, hasOld: true },
    ]);
  });

  it("an insert: its values, without old ones, from the record when changed is empty; never _id", () => {
    const v: RecordVersion = { ...base, version: 1, kind: "insert", record: { _id: 1, a: "w", b: 1 }, changed: {} };
    expect(historyLines(v, ["a", "b"])).toEqual([
      { field: "a", old: null, new: "w", hasOld: false },
      { field: "b", old: null, new: 1, hasOld: false },
    ]);
  });

  it("a delete shows no fields", () => {
    const v: RecordVersion = { ...base, version: 4, kind: "delete", record: { _id: 1, a: "x" }, changed: { a: { old: "x", new: null } } };
    expect(historyLines(v, ["a"])).toEqual([]);
  });

  it("orders versions newest first", () => {
    const v = (version: number): RecordVersion => ({ ...base, version, kind: "update", record: null, changed: {} });
    expect(newestFirst([v(1), v(5), v(3)]).map((x) => x.version)).toEqual([5, 3, 1]);
  });
});
