import { describe, expect, it } from "vitest";
import { rankOrder } from "./ranked";

describe("rankOrder", () => {
  it("orders by score, lowest first, keeping the given order among equal scores", () => {
    const out = rankOrder([1, 2, 3, 4, 5, 6], [-0.5, -1.5, -0.5, -2, -1.5, -0.5]);
    expect([...out.ids]).toEqual([4, 2, 5, 1, 3, 6]);
    expect([...out.ranks]).toEqual([-2, -1.5, -1.5, -0.5, -0.5, -0.5]);
  });

  it("agrees with a plain stable sort on many scores", () => {
    const scores = Array.from({ length: 5000 }, (_, i) => -((i * 7919) % 97) / 10);
    const ids = scores.map((_, i) => i + 1);
    const expected = ids.map((id, i) => ({ id, s: scores[i] })).sort((a, b) => a.s - b.s || a.id - b.id).map((x) => x.id);
    expect([...rankOrder(ids, scores).ids]).toEqual(expected);
  });
});
