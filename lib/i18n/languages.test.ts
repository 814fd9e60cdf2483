import { describe, expect, it } from "vitest";
import { formatLocale, langFromCookie, pickLanguage } from "./languages";

describe("languages", () => {
  it("picks the first preferred language we speak", () => {
    expect(pickLanguage(["es-ES", "fr-CA", "de"])).toBe("fr");
    expect(pickLanguage(["DE_at"])).toBe("de");
    expect(pickLanguage(["es", "it"])).toBeUndefined();
  });

  it("writes numbers in the chosen language's own region, else the browser's first preference", () => {
    expect(formatLocale("fr", ["en-GB", "fr-CA"])).toBe("fr-CA");
    expect(formatLocale("de", ["en-GB"])).toBe("de");
    expect(formatLocale("en", ["de-DE"])).toBe("en-US");
    expect(formatLocale(undefined, ["es-ES", "en"])).toBe("es-ES");
    expect(formatLocale(undefined, [])).toBe("en-US");
  });

  it("reads the menu's cookie, ignoring languages it does not speak", () => {
    expect(langFromCookie("a=1; lang=de; b=2")).toBe("de");
    expect(langFromCookie("lang=es")).toBeUndefined();
    expect(langFromCookie("xlang=fr")).toBeUndefined();
  });
});
