import { describe, expect, it } from "vitest";
import { rangeText } from "./pager";

describe("rangeText", () => {
  it("shows the range and the total", () => {
    expect(rangeText(100, 100, 1234567, false)).toBe("101–200 of 1,234,567");
    expect(rangeText(0, 7, 7, false)).toBe("1–7 of 7");
    expect(rangeText(0, 10, 50000, true)).toBe("1–10 of about 50,000");
    expect(rangeText(0, 0, 0, false)).toBe("0 of 0");
  });
});
