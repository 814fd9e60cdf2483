import { describe, expect, it } from "vitest";
import { got, runLater, runNow, type Got, type Plan } from "./stepwise";

/** Reads twice, the second read depending on the first. */
function* plan(read: (n: number) => Got<number>): Plan<string> {
  const a = yield* got(read(1));
  const b = yield* got(read(a + 1));
  return `${a},${b}`;
}

describe("stepwise plans", () => {
  it("runs with reads that answer at once, in order", () => {
    const asked: number[] = [];
    expect(runNow(plan((n) => (asked.push(n), n * 10)))).toBe("10,110");
    expect(asked).toEqual([1, 11]);
  });

  it("runs with reads that answer later, and passes their failures on", async () => {
    expect(await runLater(plan(async (n) => n * 10))).toBe("10,110");
    await expect(runLater(plan(async (n) => (n > 1 ? Promise.reject(new Error("read failed")) : n)))).rejects.toThrow("read failed");
  });

  it("refuses a promise where reads must answer at once", () => {
    expect(() => runNow(plan(async (n) => n))).toThrow(/runLater/);
  });
});
