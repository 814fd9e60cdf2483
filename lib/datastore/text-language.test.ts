// The languages a resource's full text may be in, the default rule, and how a word is folded
// before stop words (as PostgreSQL's unaccent, then its Snowball dictionary).
import { describe, expect, it } from "vitest";
import { ErrorBag } from "./errors";
import { parsePlain } from "./full-text";
import { DEFAULT_LANGUAGE, foldWord, isStopWordIn, languageOf, LANGUAGES, parseLanguage, searchLanguage } from "./text-language";
import { unaccent } from "./unaccent";

describe("languages", () => {
  it("takes configuration names in any case, and nothing else", () => {
    expect(languageOf("French")).toBe("french");
    expect(languageOf(" german ")).toBe("german");
    expect(languageOf("klingon")).toBeUndefined();
    expect(languageOf("greek")).toBeUndefined(); // PostgreSQL has it; no JS stemmer does
    expect(languageOf(7)).toBeUndefined();
    expect(LANGUAGES).toContain("simple");
    expect(LANGUAGES).toContain(DEFAULT_LANGUAGE);
  });

  it("parses datastore_create's language: absent is the default, unknown a 409 naming those taken", () => {
    const bag = new ErrorBag();
    expect(parseLanguage(undefined, bag)).toBeUndefined();
    expect(parseLanguage("", bag)).toBeUndefined();
    expect(parseLanguage("Spanish", bag)).toBe("spanish");
    expect(bag.empty).toBe(true);
    parseLanguage("klingon", bag);
    expect(() => bag.throwIfAny()).toThrow();
  });

  it("reads a search in its own language, else the resource's, else english", () => {
    expect(searchLanguage("simple", { language: "french" })).toBe("simple");
    expect(searchLanguage(undefined, { language: "french" })).toBe("french");
    expect(searchLanguage(undefined, {})).toBe(DEFAULT_LANGUAGE);
  });
});

describe("folding before stop words", () => {
  it("unaccents as PostgreSQL's rules do, ligatures and ß included", () => {
    expect(unaccent("élève Häuser Straße Œuvre ёлка")).toBe("eleve Hauser Strasse OEuvre елка");
    expect(unaccent("plain")).toBe("plain");
  });

  it("folds every language but english, whose configuration has no unaccent", () => {
    expect(foldWord("Élève", "french")).toBe("eleve");
    expect(foldWord("Élève", "simple")).toBe("eleve");
    expect(foldWord("Élève", "english")).toBe("élève");
  });

  it("drops each language's stop words from a query, after folding", () => {
    expect(isStopWordIn("Le", "french")).toBe(true);
    expect(isStopWordIn("là", "french")).toBe(true); // la
    expect(isStopWordIn("the", "french")).toBe(false);
    expect(isStopWordIn("the", "simple")).toBe(false);
    expect(parsePlain("le chat", "french")).toEqual({ op: "term", word: "chat", prefix: false });
    expect(parsePlain("the cat")).toEqual({ op: "term", word: "cat", prefix: false });
  });
});
