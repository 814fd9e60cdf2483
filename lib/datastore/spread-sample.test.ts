import { describe, expect, it } from "vitest";
import { spreadIds } from "./spread-sample";

describe("spreadIds", () => {
  const [LO, HI] = [1, 7200];

  it("picks increasing ids within the table's extent, one in each stretch", () => {
    for (const n of [300, 100, 1200, 3600]) {
      const got = spreadIds(LO, HI, n)!;
      expect(got).toHaveLength(n);
      expect(got[0]).toBeGreaterThanOrEqual(LO);
      expect(got.at(-1)).toBeLessThanOrEqual(HI);
      for (let i = 1; i < got.length; i++) expect(got[i], `pick ${i} of ${n}`).toBeGreaterThan(got[i - 1]);
      // stretches of whole rows here: pick i lies in stretch i
      const step = (HI - LO + 1) / n;
      expect(Number.isInteger(step)).toBe(true);
      got.forEach((id, i) => expect(Math.floor((id - LO) / step)).toBe(i));
    }
  });

  // Stretches of a fractional length must not floor to the same _id: the sample would hold
  // fewer rows than `picked` says (aggregate's estimates divide by `picked`).
  it("never picks the same _id twice, whatever the stretch length", () => {
    for (const n of [601, 1000, 3333]) {
      const got = spreadIds(LO, HI, n)!;
      expect(new Set(got).size, `${n} picks`).toBe(n);
    }
  });

  it("gives the same extent the same picks, and another extent others", () => {
    expect(spreadIds(LO, HI, 300)).toEqual(spreadIds(LO, HI, 300));
    expect(spreadIds(LO + 1, HI + 1, 300)).not.toEqual(spreadIds(LO, HI, 300)!.map((id) => id + 1));
  });

  it("answers null when the table is no bigger than the sample", () => {
    expect(spreadIds(LO, HI, 7200)).toBeNull();
    expect(spreadIds(LO, HI, 7201)).toBeNull();
    expect(spreadIds(LO, HI, 7199)).not.toBeNull();
  });
});
