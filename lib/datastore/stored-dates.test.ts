import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isStoredDate, isStoredTimestamp } from "./stored-dates";
import { toStorage } from "./types";

const pad = (n: number, width: number) => String(n).padStart(width, "0");

describe("stored dates and timestamps", () => {
  // Mostly well-formed, often out of range.
  const moment = fc
    .tuple(
      fc.integer({ min: 0, max: 9999 }),
      fc.integer({ min: 0, max: 13 }),
      fc.integer({ min: 0, max: 32 }),
      fc.integer({ min: 0, max: 25 }),
      fc.integer({ min: 0, max: 61 }),
      fc.integer({ min: 0, max: 61 }),
      fc.constantFrom("T", " ", "t"),
    )
    .map(([y, mo, d, h, mi, s, sep]) => `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}${sep}${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}`);
  const inputs = fc.oneof(moment, moment.map((s) => s.slice(0, 10)), fc.string({ maxLength: 20 }));
  const stored = (type: "date" | "timestamp", s: string) => {
    try {
      return toStorage(type, s) === s;
    } catch {
      return false;
    }
  };

  it("says stored only of what toStorage gives back unchanged, and of that all from year 100 on", () => {
    fc.assert(
      fc.property(inputs, (s) => {
        expect(isStoredDate(s)).toBe(stored("date", s) && Number(s.slice(0, 4)) >= 100);
        expect(isStoredTimestamp(s)).toBe(stored("timestamp", s) && Number(s.slice(0, 4)) >= 100);
      }),
      { numRuns: 5000 },
    );
  });

  it("knows leap days, the last second and the first year it checks", () => {
    expect(["2020-02-29", "2000-02-29", "0100-01-01", "9999-12-31"].map(isStoredDate)).toEqual([true, true, true, true]);
    expect(["2021-02-29", "1900-02-29", "0099-01-01", "2020-1-02", "2020-01-02T00:00:00"].map(isStoredDate)).toEqual([false, false, false, false, false]);
    expect(isStoredTimestamp("2020-02-29T23:59:59")).toBe(true);
    expect(["2020-01-01T24:00:00", "2020-01-01 00:00:00", "2020-01-01T00:00", "2021-02-29T00:00:00"].map(isStoredTimestamp)).toEqual([false, false, false, false]);
  });
});
