// Our full-text words beside PostgreSQL 15's, for the cases data and searches are made of.
// `pg` is to_tsvector('english', input) as PostgreSQL 15.18 printed it (plainto_tsquery gave
// the same lexemes, ANDed, for every row). `ours` is "same", or our words and why we differ.
// Ours: the tokens our index holds (porter stems; stop words aside, as no query searches
// them), which must also be exactly the tokens a plain `q` of the input searches for.
// Below, French and German: PostgreSQL's ds_french and ds_german (unaccent, then the Snowball
// dictionary: postgres/migrations.ts) beside our lexemes (fts-words.ts).
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isStopWord, parsePlain, termsOf } from "../full-text";
import { FTS_TOKENIZER, ftsColumnExpr, ftsText, ftsTokenizer, registerFtsFunctions } from "./fts-text";
import { queryPieces } from "./fts-words";

type Ours = "same" | { words: string[]; why: string };
const differs = (words: string[], why: string): Ours => ({ words, why });

const NO_COMPOUND = "no compound lexeme: its parts are ANDed, so a row with both parts anywhere matches";
const PARTS = "split at punctuation: the query ANDs the parts, so it still finds the row, and a part finds it too";
const HYPHEN = "a hyphen after a letter or digit joins words (dates, ranges, codes): PG's lexeme is a signed number, which a search for the part cannot find";

const CASES: [input: string, pg: string[], ours: Ours][] = [
  // numbers
  ["13.4", ["13.4"], "same"],
  ["4", ["4"], "same"],
  ["-4", ["-4"], "same"],
  ["+4", ["+4"], differs(["4"], "a plus is punctuation (rare in data; one scan less per text value)")],
  ["-13.4", ["-13.4"], "same"],
  ["1e5", ["1e5"], "same"],
  ["1.5e-3", ["1.5e-3"], "same"],
  ["1.5E+3", ["1.5e+3"], differs(["1.5", "3", "e"], "a plus is punctuation; 1.5e-3 stays whole")],
  [".5", ["5"], "same"],
  ["1,000.50", ["000.50", "1"], "same"],
  ["13.4kg", ["13.4", "kg"], "same"],
  ["(13.4)", ["13.4"], "same"],
  ["x -4", ["-4", "x"], "same"],
  ["x=-4", ["-4", "x"], "same"],
  ["3.4e5.6", ["3.4e5", "6"], "same"],
  ["1e5x", ["1e5", "x"], differs(["1e5x"], "letters and digits stay one word without a dot or sign (keeps hex ids like 3e4f whole)")],
  ["3-4", ["-4", "3"], differs(["3", "4"], HYPHEN)],
  ["a-4", ["-4"], differs(["4"], HYPHEN)],
  ["covid-19", ["-19", "covid"], differs(["19", "covid"], HYPHEN)],
  // dates and times
  ["2001-01-14", ["-01", "-14", "2001"], differs(["01", "14", "2001"], HYPHEN)],
  ["2001-01-14T21:55:00", ["-01", "-14", "00", "2001", "55", "t21"], differs(["00", "01", "14", "2001", "21", "55"], `${HYPHEN}; the T separates`)],
  ["21:55:00.5", ["00.5", "21", "55"], "same"],
  // hyphenated words
  ["state-of-the-art", ["art", "state", "state-of-the-art"], differs(["art", "state"], NO_COMPOUND)],
  ["e-mail", ["e", "e-mail", "mail"], differs(["e", "mail"], NO_COMPOUND)],
  ["co-operate", ["co", "co-oper", "oper"], differs(["co", "oper"], NO_COMPOUND)],
  ["x-4y", ["4y", "x", "x-4y"], differs(["4y", "x"], NO_COMPOUND)],
  ["r2-d2", ["d2", "r2", "r2-d2"], differs(["d2", "r2"], NO_COMPOUND)],
  ["550e8400-e29b-41d4-a716-446655440000", ["41d4", "446655440000", "550e8400", "a716", "e29b", "e29b-41d4-a716"], differs(["41d4", "446655440000", "550e8400", "a716", "e29b"], NO_COMPOUND)],
  // e-mail addresses, URLs, host names
  ["foo@example.com", ["foo@example.com"], differs(["com", "exampl", "foo"], PARTS)],
  ["john.doe@mail.example.org", ["john.doe@mail.example.org"], differs(["doe", "exampl", "john", "mail", "org"], PARTS)],
  ["https://example.com/a/b?x=1", ["/a/b?x=1", "example.com", "example.com/a/b?x=1"], differs(["1", "b", "com", "exampl", "http", "x"], PARTS)],
  ["http://www.example.com", ["www.example.com"], differs(["com", "exampl", "http", "www"], PARTS)],
  ["example.com", ["example.com"], differs(["com", "exampl"], PARTS)],
  ["README.md", ["readme.md"], differs(["md", "readm"], PARTS)],
  // versions and addresses
  ["1.2.3", ["1.2.3"], "same"],
  ["192.168.0.1", ["192.168.0.1"], "same"],
  ["10.0.0.1:8080", ["10.0.0.1", "8080"], "same"],
  ["v2.0", ["v2.0"], differs(["0", "v2"], "a number joins only where no letter precedes it; the query ANDs v2 and 0")],
  ["v1.2.3", ["v1.2.3"], differs(["2.3", "v1"], "a number joins only where no letter precedes it; the query ANDs v1 and 2.3")],
  // file paths
  ["/usr/local/bin", ["/usr/local/bin"], differs(["bin", "local", "usr"], PARTS)],
  ["./a/b.txt", ["./a/b.txt"], differs(["b", "txt"], PARTS)],
  ["C:\\Users\\x", ["c", "user", "x"], "same"],
  ["n/a", ["n/a"], differs(["n"], PARTS)],
  // words and sentences
  ["The end. Start again", ["end", "start"], "same"],
  ["running cats", ["cat", "run"], "same"],
  ["don't", [], "same"],
  ["O'Neill", ["neill", "o"], "same"],
  ["Zürich", ["zürich"], differs(["zurich"], "diacritics folded (remove_diacritics): zurich finds Zürich")],
];

describe("full-text words beside PostgreSQL's", () => {
  let db: Database.Database;
  let id = 0;
  beforeAll(() => {
    db = new Database(":memory:");
    registerFtsFunctions(db);
    db.exec("CREATE TABLE t (_id INTEGER PRIMARY KEY, c1 TEXT)");
    db.exec(`CREATE VIEW t_text AS SELECT _id, ${ftsColumnExpr("c1", "text")} AS c1 FROM t`);
    db.exec(`CREATE VIRTUAL TABLE t_fts USING fts5(c1, content='t_text', content_rowid='_id', detail=column, tokenize='${FTS_TOKENIZER}')`);
    db.exec("CREATE VIRTUAL TABLE t_vocab USING fts5vocab(t_fts, 'instance')");
  });
  afterAll(() => db.close());

  /** The tokens the index holds for a text, joiners shown as . - + and stop words left out. */
  function indexed(text: string, view = true): string[] {
    const rowid = ++id;
    db.prepare("INSERT INTO t (_id, c1) VALUES (?, ?)").run(rowid, text);
    if (view) db.prepare("INSERT INTO t_fts (rowid, c1) SELECT _id, c1 FROM t_text WHERE _id = ?").run(rowid);
    else db.prepare("INSERT INTO t_fts (rowid, c1) VALUES (?, ?)").run(rowid, text);
    const terms = db.prepare("SELECT DISTINCT term FROM t_vocab WHERE doc = ? ORDER BY term").pluck().all(rowid) as string[];
    return terms.map((w) => w.replace(/\uE000/g, ".").replace(/\uE001/g, "-").replace(/\uE002/g, "+")).filter((w) => !isStopWord(w)).sort();
  }

  it.each(CASES)("%j: PG %j, ours %j", (input, pg, ours) => {
    const index = indexed(input);
    const tree = parsePlain(input);
    const query = tree ? indexed(termsOf(tree).map(ftsText).join(" "), false) : [];
    expect(query).toEqual(index);
    if (ours === "same") {
      expect(index).toEqual([...pg].sort());
    } else {
      expect(index).toEqual(ours.words);
      expect(index).not.toEqual([...pg].sort());
    }
  });
});

// to_tsvector('ds_<language>', input) as PostgreSQL 15.18 printed it, each the same as ours.
const IN_LANGUAGES: [language: string, input: string, pg: string[]][] = [
  ["french", "Les chevaux galopent", ["cheval", "galopent", "le"]],
  ["french", "L'élève et les élèves", ["elev", "le"]],
  ["french", "Le cœur des hôpitaux", ["coeur", "hopital"]],
  ["french", "nationalité", ["nationalit"]],
  ["french", "13.5 kilomètres", ["13.5", "kilometr"]],
  // A stop word spelled with an accent is one only as spelled: étaient is folded first, as in
  // PostgreSQL, and là becomes the stop word la.
  ["french", "Ils étaient là", ["etaient", "il"]],
  ["french", "aujourd'hui", ["aujourd", "hui"]],
  ["german", "Die Häuser", ["haus"]],
  ["german", "Straße und Strassen", ["strass"]],
  ["german", "Bücher über Bäume", ["baum", "buch", "uber"]],
  ["german", "die schönsten Gärten", ["gart", "schon"]],
  ["german", "Öl und Übung", ["ol", "ubung"]],
  ["german", "im Jahr 1.5", ["1.5", "jahr"]],
];

describe("full-text words in French and German beside PostgreSQL's", () => {
  let db: Database.Database;
  let id = 0;
  beforeAll(() => {
    db = new Database(":memory:");
    registerFtsFunctions(db);
    for (const lang of ["french", "german"]) {
      db.exec(`CREATE TABLE ${lang} (_id INTEGER PRIMARY KEY, c1 TEXT)`);
      db.exec(`CREATE VIEW ${lang}_text AS SELECT _id, ${ftsColumnExpr("c1", "text", lang)} AS c1 FROM ${lang}`);
      db.exec(`CREATE VIRTUAL TABLE ${lang}_fts USING fts5(c1, content='${lang}_text', content_rowid='_id', detail=column, tokenize='${ftsTokenizer(lang)}')`);
      db.exec(`CREATE VIRTUAL TABLE ${lang}_vocab USING fts5vocab(${lang}_fts, 'instance')`);
    }
  });
  afterAll(() => db.close());

  it.each(IN_LANGUAGES)("%s %j: %j", (lang, input, pg) => {
    const rowid = ++id;
    db.prepare(`INSERT INTO ${lang} (_id, c1) VALUES (?, ?)`).run(rowid, input);
    db.prepare(`INSERT INTO ${lang}_fts (rowid, c1) SELECT _id, c1 FROM ${lang}_text WHERE _id = ?`).run(rowid);
    const terms = db.prepare(`SELECT DISTINCT term FROM ${lang}_vocab WHERE doc = ? ORDER BY term`).pluck().all(rowid) as string[];
    const index = terms.map((w) => w.replace(/\uE000/g, ".").replace(/\uE001/g, "-")).sort();
    expect(index).toEqual([...pg].sort());
    // A plain q of the input searches for exactly those words.
    const tree = parsePlain(input, lang);
    const query = tree ? termsOf(tree).flatMap((w) => queryPieces(ftsText(w), lang, lang)) : [];
    expect([...new Set(query.map((w) => w.replace(/\uE000/g, ".").replace(/\uE001/g, "-")))].sort()).toEqual(index);
  });
});
