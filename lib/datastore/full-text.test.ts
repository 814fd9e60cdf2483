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

  it.each(["&&&", "tolstoy &", "& tolstoy", "tolstoy peace", "(tolstoy", "tolstoy)", "()", "!", "|", "a <-> b", '"quoted"', "a:b", "", "   "])(
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
