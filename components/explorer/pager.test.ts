import { describe, expect, it } from "vitest";
import { rangeText } from "./pager";

describe("rangeText", () => {
  it("shows the range and the total", () => {
    expect(rangeText(100, 100, 1234567, false)).toBe("101–200 of 1,234,567");
    expect(rangeText(0, 7, 7, false)).toBe("1–7 of 7");
    expect(rangeText(0, 0, 0, false)).toBe("0 of 0");
  });
  it("rounds an estimated total and says about", () => {
    expect(rangeText(0, 100, 13110, true)).toBe("1–100 of about 13,100");
    expect(rangeText(0, 10, 50000, true)).toBe("1–10 of about 50,000");
    expect(rangeText(200, 0, 130046, true)).toBe("0 of about 130,000");
  });
});
