// SQLite's full-text words in a resource's language: each language's lexemes are PostgreSQL's
// (to_tsvector('ds_<language>', word) as PostgreSQL 15.18 printed it), text is read word by
// word with stop words left out, and query words meet the index's.
import { describe, expect, it } from "vitest";
import { LANGUAGES } from "../text-language";
import { indexWords, lexeme, queryPieces } from "./fts-words";

const POSTGRES: [language: string, word: string, lexeme: string][] = [
  ["french", "chevaux", "cheval"],
  ["french", "élèves", "elev"],
  ["german", "Häuser", "haus"],
  ["spanish", "canciones", "cancion"],
  ["spanish", "niños", "nin"],
  ["italian", "città", "citt"],
  ["portuguese", "corações", "coraco"],
  ["dutch", "fietsen", "fiets"],
  ["russian", "книги", "книг"],
  ["russian", "ёлки", "елк"],
  ["swedish", "flickorna", "flick"],
  ["danish", "bøgerne", "bog"],
  ["finnish", "taloissa", "talo"],
  ["turkish", "kitaplar", "kitap"],
  // Its stem comes out empty: PostgreSQL keeps the word.
  ["turkish", "sunuz", "sunuz"],
  ["catalan", "cançons", "cancon"],
  ["hungarian", "házakban", "haz"],
  ["norwegian", "bøkene", "bok"],
  ["romanian", "cărțile", "cart"],
  ["arabic", "المكتبات", "مكتب"],
  ["irish", "leabhair", "leabhair"],
  ["basque", "etxeak", "etxe"],
  ["armenian", "գրքեր", "գրքեր"],
  ["simple", "Élèves", "eleves"],
  // english's Snowball stemmer (porter2), for a query read in english on an index that is not.
  ["english", "running", "run"],
];

describe("lexeme", () => {
  it.each(POSTGRES)("%s %s is %s, as PostgreSQL has it", (language, word, want) => {
    expect(lexeme(word, language)).toBe(want);
  });

  it("has a stemmer for every language taken", () => {
    for (const language of LANGUAGES) expect(typeof lexeme("word", language)).toBe("string");
  });

  it("drops the language's stop words after folding, and stems nothing with a digit in it", () => {
    expect(lexeme("Le", "french")).toBeNull();
    expect(lexeme("là", "french")).toBeNull(); // la
    expect(lexeme("été", "french")).toBe("ete"); // a stop word only as spelled, as in PostgreSQL
    expect(lexeme("und", "german")).toBeNull();
    expect(lexeme("the", "simple")).toBe("the");
    expect(lexeme("r2d2é", "french")).toBe("r2d2e");
    expect(lexeme("13\uE0004", "german")).toBe("13\uE0004");
  });
});

describe("indexWords", () => {
  it("spells a text as its lexemes, stop words left out", () => {
    expect(indexWords("Les chevaux de l'élève", "french")).toBe("le cheval elev");
    expect(indexWords("Die Häuser, das Haus!", "german")).toBe("haus haus");
    expect(indexWords("", "french")).toBe("");
    expect(indexWords("le la les", "french")).toBe("le");
  });
});

describe("queryPieces", () => {
  it("leaves english to FTS5's porter, and reads every other language as the index does", () => {
    expect(queryPieces("Running", "english", "english")).toEqual(["Running"]);
    expect(queryPieces("chevaux", "french", "french")).toEqual(["cheval"]);
    expect(queryPieces("eleve", "french", "french")).toEqual(indexWords("élève", "french").split(" "));
    // The search's language reads the words; the index keeps its own.
    expect(queryPieces("running", "english", "french")).toEqual(["run"]);
    expect(queryPieces("chevaux", "french", "english")).toEqual(["cheval"]);
  });
});
