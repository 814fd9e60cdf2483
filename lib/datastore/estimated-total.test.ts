import { describe, expect, it } from "vitest";
import { totalPlan, type TotalReads } from "./estimated-total";
import { runNow } from "./stepwise";

function reads(budgeted: number | null, estimate: number | null) {
  const asked: string[] = [];
  const r: TotalReads = {
    exact: () => (asked.push("exact"), 25),
    budgeted: () => (asked.push("budgeted"), budgeted),
    estimate: () => (asked.push("estimate"), estimate),
  };
  return { r, asked };
}

describe("totalPlan", () => {
  it("counts exactly without a threshold, however long it takes", () => {
    const { r, asked } = reads(null, 30);
    expect(runNow(totalPlan(undefined, r))).toEqual({ total: 25, estimated: false });
    expect(asked).toEqual(["exact"]);
  });

  it("keeps a count that fits the budget, even with a threshold", () => {
    const { r, asked } = reads(25, 30);
    expect(runNow(totalPlan(0, r))).toEqual({ total: 25, estimated: false });
    expect(asked).toEqual(["budgeted"]);
  });

  it("answers the estimate past the budget when it is at least the threshold (CKAN's >=)", () => {
    expect(runNow(totalPlan(0, reads(null, 30).r))).toEqual({ total: 30, estimated: true });
    expect(runNow(totalPlan(30, reads(null, 30).r))).toEqual({ total: 30, estimated: true });
  });

  it("finishes the exact count when the estimate is below the threshold, or there is none", () => {
    expect(runNow(totalPlan(31, reads(null, 30).r))).toEqual({ total: 25, estimated: false });
    const { r, asked } = reads(null, null);
    expect(runNow(totalPlan(0, r))).toEqual({ total: 25, estimated: false });
    expect(asked).toEqual(["budgeted", "estimate", "exact"]);
  });
});
