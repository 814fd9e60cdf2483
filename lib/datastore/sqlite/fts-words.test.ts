// SQLite's full-text words in a resource's language: each language's lexemes are PostgreSQL's
// (to_tsvector('ds_<language>', word) as PostgreSQL 15.18 printed it), text is read word by
// word with stop words left out, and query words meet the index's.
import Database from "better-sqlite3";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isStopWord, words } from "../full-text";
import { LANGUAGES } from "../text-language";
import { ftsColumnExpr, ftsTokenizer, registerFtsFunctions } from "./fts-text";
import { indexWords, lexeme, queryPieces } from "./fts-words";
import { compileFts } from "./sql";

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

describe("an index in French or German", () => {
  const texty = fc
    .array(
      fc.oneof(
        fc.constantFrom(..." ,.'-:()éèÉàçœßäöü0123456789aeiou".split("")),
        fc.constantFrom("chevaux", "élève", "Häuser", "le", "les", "und", "13.4", "-4", "été", "Straße", "aujourd'hui", "2001-01-14T21:55:00"),
      ),
      { maxLength: 12 },
    )
    .map((a) => a.join(""));

  it.each(["french", "german"])("finds every word of a text in %s, whole and as a prefix (the query reads as the index does)", (lang) => {
    const db = new Database(":memory:");
    registerFtsFunctions(db);
    db.exec("CREATE TABLE t (_id INTEGER PRIMARY KEY, c1 TEXT)");
    db.exec(`CREATE VIEW t_text AS SELECT _id, ${ftsColumnExpr("c1", "text", lang)} AS c1 FROM t`);
    db.exec(`CREATE VIRTUAL TABLE t_fts USING fts5(c1, content='t_text', content_rowid='_id', detail=column, tokenize='${ftsTokenizer(lang)}')`);
    const insert = db.prepare("INSERT INTO t (_id, c1) VALUES (?, ?)");
    const index = db.prepare("INSERT INTO t_fts (rowid, c1) SELECT _id, c1 FROM t_text WHERE _id = ?");
    const find = db.prepare("SELECT count(*) FROM t_fts WHERE t_fts MATCH ? AND rowid = ?").pluck();
    let id = 0;
    try {
      fc.assert(
        fc.property(texty, (text) => {
          const rowid = ++id;
          insert.run(rowid, text);
          index.run(rowid);
          for (const w of words(text).filter((x) => !isStopWord(x, lang))) {
            for (const prefix of [false, true]) {
              const expr = compileFts({ op: "term", word: w, prefix }, { query: lang, index: lang }).expr;
              expect(find.get(expr, BigInt(rowid)), `${w}${prefix ? ":*" : ""} in ${text}`).toBe(1);
            }
          }
        }),
        { numRuns: 300 },
      );
      // The integrity check reads every row back through the view: index and view agree.
      expect(() => db.exec("INSERT INTO t_fts (t_fts, rank) VALUES ('integrity-check', 1)")).not.toThrow();
    } finally {
      db.close();
    }
  });
});
