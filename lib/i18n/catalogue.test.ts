// Every key is complete in every language: non-empty, the same placeholders as English, plural
// forms the language has (and `other`), and no key defined by two areas.
import { describe, expect, it } from "vitest";
import { areas, catalogue } from "./catalogue";
import type { Text } from "./catalogue/define";
import { LANGUAGES, type Lang } from "./languages";
import { PLACEHOLDER, translate } from "./translate";

const forms = (text: Text): [string, string][] => (typeof text === "string" ? [["", text]] : Object.entries(text));
const placeholders = (s: string) => [...new Set([...s.matchAll(PLACEHOLDER)].map((m) => m[1]))].sort();

describe("message catalogue", () => {
  const entries = Object.entries(catalogue) as [string, Record<Lang, Text>][];

  it("holds each key in one area only", () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const [area, messages] of Object.entries(areas)) {
      for (const key of Object.keys(messages)) {
        if (seen.has(key)) twice.push(`${key} (${seen.get(key)}, ${area})`);
        seen.set(key, area);
      }
    }
    expect(twice).toEqual([]);
  });

  it("has every key, non-empty, in every language and no language it does not know", () => {
    const problems: string[] = [];
    for (const [key, entry] of entries) {
      for (const lang of LANGUAGES) {
        const text = entry[lang];
        if (text === undefined) problems.push(`${key}: no ${lang}`);
        else for (const [form, s] of forms(text)) if (!s.trim()) problems.push(`${key}: ${lang} ${form} is empty`);
      }
      for (const lang of Object.keys(entry)) if (!(LANGUAGES as readonly string[]).includes(lang)) problems.push(`${key}: unknown ${lang}`);
    }
    expect(problems).toEqual([]);
  });

  it("keeps English's placeholders in every language and form", () => {
    const problems: string[] = [];
    for (const [key, entry] of entries) {
      const english = placeholders(forms(entry.en).map(([, s]) => s).join(" "));
      for (const lang of LANGUAGES) {
        for (const [form, s] of forms(entry[lang] ?? "")) {
          const own = placeholders(s);
          // a singular may say "one" in words rather than {count}
          const expected = form && form !== "other" ? english.filter((p) => own.includes(p) || p !== "count") : english;
          if (own.join() !== expected.join()) problems.push(`${key} ${lang}${form && ` ${form}`}: {${own.join("}{")}} not {${expected.join("}{")}}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("gives plural forms each language has, and always other", () => {
    const problems: string[] = [];
    for (const [key, entry] of entries) {
      for (const lang of LANGUAGES) {
        const text = entry[lang];
        if (typeof text !== "object") {
          if (typeof entry.en === "object") problems.push(`${key} ${lang}: plural in English, not here`);
          continue;
        }
        const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories as string[];
        for (const form of Object.keys(text)) if (!categories.includes(form)) problems.push(`${key} ${lang}: ${lang} has no "${form}"`);
        if (categories.includes("one") && !text.one) problems.push(`${key} ${lang}: no "one"`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe("translate", () => {
  it("picks the language and falls back to the key for an unknown one", () => {
    expect(translate("fr", "fr-FR", "language.label")).toBe("Langue");
    expect(translate("de", "de-DE", "language.label")).toBe("Sprache");
    expect(translate("en", "en-US", "nope" as never)).toBe("nope");
  });
});
