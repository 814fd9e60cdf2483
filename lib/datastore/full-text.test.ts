// Unit tests for q parsing (contract §6.3): plain word lists and the tsquery subset.
import { describe, expect, it } from "vitest";
import { FtsSyntaxError, isStopWord, parsePlain, parseTsQuery, termsOf, words } from "./full-text";

const term = (word: string, prefix = false) => ({ op: "term", word, prefix });

describe("words", () => {
  it("splits on anything that is not a letter, digit or mark", () => {
    expect(words('"quoted" (paren) * : -x')).toEqual(["quoted", "paren", "x"]);
    expect(words("Márquez, 1869; naïve")).toEqual(["Márquez", "1869", "naïve"]);
    expect(words("")).toEqual([]);
  });

  it.each<[string, string[]]>([
    ["13.4 -4 1.5e-3 1E-5 1e5", ["13.4", "-4", "1.5e-3", "1E-5", "1e5"]],
    ["+4 1.5e+3", ["4", "1.5", "e", "3"]], // a plus is punctuation
    ["(-4) x=-4 --4 -.5", ["-4", "x", "-4", "-4", "5"]],
    ["1.2.3, 192.168.0.1.", ["1.2.3", "192.168.0.1"]],
    ["The end. 4.", ["The", "end", "4"]],
    ["13.4kg 1,000.50", ["13.4", "kg", "1", "000.50"]],
    // a hyphen after a letter or digit separates words; so does the T of a date-time
    ["covid-19 3-4 2001-01-14T21:55:00", ["covid", "19", "3", "4", "2001", "01", "14", "21", "55", "00"]],
    ["state-of-the-art v2.0", ["state", "of", "the", "art", "v2", "0"]],
  ])("keeps a number whole, as PostgreSQL's parser does: %j", (text, want) => {
    expect(words(text)).toEqual(want);
  });
});

describe("parsePlain", () => {
  it("ANDs every word", () => {
    expect(parsePlain("war peace")).toEqual({ op: "and", children: [term("war"), term("peace")] });
    expect(parsePlain("tolstoy")).toEqual(term("tolstoy"));
  });

  it("treats punctuation as a separator, never as syntax", () => {
    expect(parsePlain("tolstoy & | ! ( ) :*")).toEqual(term("tolstoy"));
    expect(parsePlain('"quoted" (paren) * : -x')).toEqual({
      op: "and",
      children: [term("quoted"), term("paren"), term("x")],
    });
  });

  it("drops English stop words, case-insensitively", () => {
    expect(parsePlain("War and Peace")).toEqual({ op: "and", children: [term("War"), term("Peace")] });
    expect(isStopWord("The")).toBe(true);
    expect(isStopWord("peace")).toBe(false);
  });

  it("searches a number as one word", () => {
    expect(parsePlain("-4.5 degrees")).toEqual({ op: "and", children: [term("-4.5"), term("degrees")] });
  });

  it("returns null when only stop words (or nothing) remain", () => {
    expect(parsePlain("the or and")).toBeNull();
    expect(parsePlain("!!!")).toBeNull();
  });
});

describe("parseTsQuery", () => {
  it("parses & | ! and :*", () => {
    expect(parseTsQuery("tolstoy & peace")).toEqual({ op: "and", children: [term("tolstoy"), term("peace")] });
    expect(parseTsQuery("tolstoy | dickens")).toEqual({ op: "or", children: [term("tolstoy"), term("dickens")] });
    expect(parseTsQuery("!tolstoy")).toEqual({ op: "not", child: term("tolstoy") });
    expect(parseTsQuery("tols:*")).toEqual(term("tols", true));
  });

  it("reads numbers as words", () => {
    expect(parseTsQuery("13.4:* & !-4")).toEqual({ op: "and", children: [term("13.4", true), { op: "not", child: term("-4") }] });
    expect(parseTsQuery("(-4|1.5e-3)")).toEqual({ op: "or", children: [term("-4"), term("1.5e-3")] });
  });

  it("binds ! tighter than &, and & tighter than |", () => {
    expect(parseTsQuery("a1 | b1 & !c1")).toEqual({
      op: "or",
      children: [term("a1"), { op: "and", children: [term("b1"), { op: "not", child: term("c1") }] }],
    });
  });

  it("honours parentheses", () => {
    expect(parseTsQuery("(a1 | b1) & c1")).toEqual({
      op: "and",
      children: [{ op: "or", children: [term("a1"), term("b1")] }, term("c1")],
    });
    expect(parseTsQuery("!(a1 & b1)")).toEqual({ op: "not", child: { op: "and", children: [term("a1"), term("b1")] } });
  });

  it("drops stop words from the tree and returns null when nothing is left", () => {
    expect(parseTsQuery("the & peace")).toEqual(term("peace"));
    expect(parseTsQuery("the | and")).toBeNull();
    expect(parseTsQuery("!the")).toBeNull();
  });

  it.each(["&&&", "-x", "a-4", "+4", "13.4kg", "tolstoy &", "& tolstoy", "tolstoy peace", "(tolstoy", "tolstoy)", "()", "!", "|", "a <-> b", '"quoted"', "a:b", "", "   "])(
    "rejects %j as a syntax error",
    (q) => {
      expect(() => parseTsQuery(q)).toThrow(FtsSyntaxError);
    },
  );
});

describe("termsOf", () => {
  it("lists the positive words", () => {
    expect(termsOf(parseTsQuery("a1 & !b1 | c1:*")!)).toEqual(["a1", "c1"]);
  });
});
