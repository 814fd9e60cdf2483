import { describe, expect, it } from "vitest";
import { ProgressRate } from "./progress-rate";

describe("ProgressRate", () => {
  it("times each phase from its own start and sends at most one line per interval", () => {
    let t = 0;
    const rate = new ProgressRate(250, () => t);
    expect(rate.next({ phase: "loading", rows: 0, fraction: 0 })).toEqual({ phase: "loading", rows: 0, fraction: 0, rows_per_second: 0, seconds_left: null });
    t = 100;
    expect(rate.next({ phase: "loading", rows: 1000, fraction: 0.1 })).toBeNull();
    t = 1000;
    // 1 s in, a quarter done: 3 s to go.
    expect(rate.next({ phase: "loading", rows: 50_000, fraction: 0.25 })).toEqual({ phase: "loading", rows: 50_000, fraction: 0.25, rows_per_second: 50_000, seconds_left: 3 });
    t = 1100;
    expect(rate.next({ phase: "indexing", rows: 0, fraction: 0 })).toBeNull();
    t = 3100;
    // The indexing clock started at 1.1 s, not at 0.
    expect(rate.next({ phase: "indexing", rows: 200_000, fraction: 1 })).toEqual({ phase: "indexing", rows: 200_000, fraction: 1, rows_per_second: 100_000, seconds_left: 0 });
  });

  it("says nothing of the time left before a phase is 1% along", () => {
    let t = 0;
    const rate = new ProgressRate(0, () => t);
    rate.next({ phase: "loading", rows: 0, fraction: 0 });
    t = 2000;
    expect(rate.next({ phase: "loading", rows: 10, fraction: 0.005 })?.seconds_left).toBeNull();
  });
});
