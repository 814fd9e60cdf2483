import { describe, expect, it } from "vitest";
import type { RowImage, VersionEntry } from "./engine";
import { DatastoreError } from "./errors";
import { changedFields, decodeCursor, encodeCursor, imageVersions, parseAsOf, recordVersions } from "./history";

describe("parseAsOf", () => {
  it("reads a version or an ISO 8601 time (UTC unless it says otherwise)", () => {
    expect(parseAsOf(undefined)).toBeUndefined();
    expect(parseAsOf("")).toBeUndefined();
    expect(parseAsOf(7)).toEqual({ version: 7 });
    expect(parseAsOf(" 12 ")).toEqual({ version: 12 });
    expect(parseAsOf("2026-01-31")).toEqual({ time: "2026-01-31T00:00:00.000Z" });
    expect(parseAsOf("2026-01-31T12:30:00")).toEqual({ time: "2026-01-31T12:30:00.000Z" });
    expect(parseAsOf("2026-01-31T12:30:00+02:00")).toEqual({ time: "2026-01-31T10:30:00.000Z" });
  });

  it("refuses anything else under its field", () => {
    for (const bad of [-1, 1.5, "yesterday", "2026-13-45", {}, true]) {
      expect(() => parseAsOf(bad, "since")).toThrow(DatastoreError);
    }
    try {
      parseAsOf("x", "since");
    } catch (e) {
      expect((e as DatastoreError).details).toHaveProperty("since");
    }
  });
});

describe("a record's versions", () => {
  const log = new Map<number, VersionEntry>([
    [2, { version: 2, time: "t2", kind: "write", token: "a" }],
    [5, { version: 5, time: "t5", kind: "write", token: "b" }],
    [9, { version: 9, time: "t9", kind: "delete", token: null }],
  ]);
  const img = (from: number, to: number | null, n: number, deleted = false): RowImage => ({ from, to, deleted, record: { _id: 1, n, s: "x" } });

  it("an insert, then each image an update, then the delete that ended the last", () => {
    const images = [img(2, 5, 1), img(5, 9, 2, true)];
    expect(imageVersions(images)).toEqual([2, 5, 9]);
    expect(recordVersions(images, log)).toEqual([
      { version: 2, time: "t2", kind: "insert", token: "a", record: { _id: 1, n: 1, s: "x" }, changed: { n: { old: null, new: 1 }, s: { old: null, new: "x" } } },
      { version: 5, time: "t5", kind: "update", token: "b", record: { _id: 1, n: 2, s: "x" }, changed: { n: { old: 1, new: 2 } } },
      { version: 9, time: "t9", kind: "delete", token: null, record: null, changed: { n: { old: 2, new: null }, s: { old: "x", new: null } } },
    ]);
  });

  it("compares values as JSON: arrays and objects by content, missing as null", () => {
    expect(changedFields({ _id: 1, a: [1, 2], b: { x: 1 } }, { _id: 1, a: [1, 2], b: { x: 2 }, c: null })).toEqual({ b: { old: { x: 1 }, new: { x: 2 } } });
  });
});

describe("the changes cursor", () => {
  it("goes back to the (version, _id) it was made from, and refuses one it did not make", () => {
    expect(decodeCursor(encodeCursor({ version: 12, id: 3400 }))).toEqual({ version: 12, id: 3400 });
    expect(decodeCursor(undefined)).toBeNull();
    expect(() => decodeCursor("garbage")).toThrow(DatastoreError);
    expect(() => decodeCursor(12)).toThrow(DatastoreError);
  });
});
