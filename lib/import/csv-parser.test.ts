import { parse } from "csv-parse/sync";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CsvParser, CsvSyntaxError } from "./csv-parser";

/** Parses `text` fed in pieces cut at `cuts`. */
function parseIn(text: string, cuts: number[], delimiter = ",", crOnly = false): string[][] {
  const p = new CsvParser(delimiter, crOnly);
  const out: string[][] = [];
  let at = 0;
  for (const c of [...cuts].sort((a, b) => a - b)) {
    p.write(text.slice(at, Math.max(at, c)), out);
    at = Math.max(at, c);
  }
  p.write(text.slice(at), out);
  return p.end(out);
}

const quote = (f: string) => (/[",\r\n]/.test(f) || f === "" ? `"${f.replace(/"/g, '""')}"` : f);

describe("CsvParser", () => {
  it("reads quoting, doubled quotes, newlines in fields, empty lines and both line endings", () => {
    const text = 'a,b,c\r\n1,"x, ""y""\nz",\n\n"",plain"quote,3\nlast,row';
    expect(parseIn(text, [])).toEqual([["a", "b", "c"], ["1", 'x, "y"\nz', ""], [""], ["", 'plain"quote', "3"], ["last", "row"]]);
    expect(parseIn("a\tb\rc\td\r", [], "\t", true)).toEqual([["a", "b"], ["c", "d"]]);
    expect(parseIn("a,b\n", [])).toEqual([["a", "b"]]);
    expect(parseIn("a,\n", [])).toEqual([["a", ""]]);
  });

  it("names the line of a quote left open", () => {
    expect(() => parseIn('a,b\n1,"open\n2,3\n', [])).toThrow(CsvSyntaxError);
    expect(() => parseIn('a,b\n1,"open\n2,3\n', [])).toThrow(/^Quote Not Closed.* line 2$/);
  });

  it("gives the same records however the text is cut into chunks", () => {
    const field = fc.stringMatching(/^[ab,"\r\n ]{0,6}$/);
    const records = fc.array(fc.array(field, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(records, fc.array(fc.nat(60), { maxLength: 8 }), (recs, cuts) => {
        const text = recs.map((r) => r.map(quote).join(",")).join("\r\n") + "\n";
        expect(parseIn(text, cuts)).toEqual(recs);
      }),
      { numRuns: 500, seed: 7 },
    );
  });

  it("agrees with csv-parse on any text csv-parse accepts", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[ab,"\r\n]{0,24}$/), fc.array(fc.nat(24), { maxLength: 4 }), (text, cuts) => {
        let expected: string[][];
        try {
          expected = parse(text, { delimiter: ",", record_delimiter: ["\r\n", "\n"], relax_column_count: true, relax_quotes: true, skip_empty_lines: false });
        } catch {
          return; // text csv-parse refuses; ours may be more lenient
        }
        expect(parseIn(text, cuts)).toEqual(expected);
      }),
      { numRuns: 2000, seed: 11 },
    );
  });
});
