import { describe, expect, it } from "vitest";
import { isPast, when } from "./when";

const utc = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

describe("when", () => {
  it("writes a date in the given locale, or the word for none", () => {
    expect(when("2026-03-04T05:06:07.000Z", "never", utc)).toBe("4 Mar 2026, 05:06");
    expect(when(null, "never", utc)).toBe("never");
    expect(when(null, "not yet", utc)).toBe("not yet");
  });

  it("shows an unreadable date as it came", () => {
    expect(when("soon", "never", utc)).toBe("soon");
  });

  it("tells a past expiry", () => {
    expect(isPast("2026-01-01T00:00:00Z", Date.parse("2026-01-02T00:00:00Z"))).toBe(true);
    expect(isPast("2026-01-03T00:00:00Z", Date.parse("2026-01-02T00:00:00Z"))).toBe(false);
    expect(isPast(null)).toBe(false);
  });
});
