// A resource resolved for a request serves its read while fresh: just answered, nothing written
// through this process since, its table still there.
import { afterEach, describe, expect, it, vi } from "vitest";
import { resolvedNow, stillFresh, wrote } from "./resolved";

describe("resolved resources", () => {
  afterEach(() => vi.restoreAllMocks());

  it("serves the copy getResource just answered, and no other", () => {
    const r = resolvedNow({ id: "a", active: true });
    expect(stillFresh(r)).toBe(r);
    expect(stillFresh({ id: "a", active: true })).toBeUndefined();
    expect(resolvedNow(undefined)).toBeUndefined();
  });

  it("not after a write through this process", () => {
    const r = resolvedNow({ id: "a", active: true });
    wrote();
    expect(stillFresh(r)).toBeUndefined();
  });

  it("not a second later, nor without a table", () => {
    const now = vi.spyOn(performance, "now").mockReturnValue(1_000);
    const r = resolvedNow({ id: "a", active: true });
    const dropped = resolvedNow({ id: "b", active: false });
    expect(stillFresh(dropped)).toBeUndefined();
    now.mockReturnValue(1_999);
    expect(stillFresh(r)).toBe(r);
    now.mockReturnValue(2_000);
    expect(stillFresh(r)).toBeUndefined();
  });
});
