// A CSV/TSV record parser for text that arrives in chunks: RFC 4180 quoting (a field that
// starts with a quote runs to the quote not doubled, "" is a quote, newlines inside stay), a
// quote inside an unquoted field is kept as it is, records end at \n or \r\n (or at \r alone,
// for files that use only \r). An empty line is one empty field, as csv-parse gives it.
// Written for the importer's speed: csv-parse was a large share of a whole import's time
// (docs/performance.md, "Import").

export class CsvSyntaxError extends Error {
  readonly code = "CSV_QUOTE_NOT_CLOSED";
}

const QUOTE = 34;
const LF = 10;
const CR = 13;

export class CsvParser {
  private rest = "";
  /** Lines before `rest`, to name an unclosed quote's line. */
  private line = 1;
  private readonly delimiter: number;
  private readonly delimiterChar: string;
  /** The next \n at or after the current field, in the text numbered `lfText`. */
  private lf = -1;
  private lfText = -1;
  /** Numbers the texts record() is given, so a kept \n position is never used on another. */
  private texts = 0;
  /** Records with a quoted field that holds a \n: only those span more than one line. */
  readonly multiline = new WeakSet<string[]>();

  constructor(
    delimiter: string,
    private readonly crOnly = false,
  ) {
    this.delimiter = delimiter.charCodeAt(0);
    this.delimiterChar = delimiter[0];
  }

  /** The records that `text` completes; the incomplete end is kept for the next call. */
  write(text: string, out: string[][] = []): string[][] {
    const s = this.rest + text;
    this.texts++;
    let at = 0;
    for (;;) {
      const next = this.record(s, at, out, false);
      if (next < 0) break;
      at = next;
    }
    this.rest = s.slice(at);
    return out;
  }

  /** The last record (one without a line ending); an open quote is an error. */
  end(out: string[][] = []): string[][] {
    this.texts++;
    if (this.rest !== "") this.record(this.rest, 0, out, true);
    this.rest = "";
    return out;
  }

  /** Parses the record at `at` into `out` and returns where the next begins, or -1 when the
   *  text ends first (unless `last`). */
  private record(s: string, at: number, out: string[][], last: boolean): number {
    const d = this.delimiter;
    const n = s.length;
    const fields: string[] = [];
    let i = at;
    for (;;) {
      if (i < n && s.charCodeAt(i) === QUOTE) {
        // A quoted field: up to the quote that is not doubled.
        let value = "";
        let from = i + 1;
        for (;;) {
          const q = s.indexOf('"', from);
          if (q < 0) {
            if (!last) return -1;
            throw new CsvSyntaxError(`Quote Not Closed: the parsing is finished with an opening quote at line ${this.line + this.lines(s, at, i)}`);
          }
          if (q + 1 < n && s.charCodeAt(q + 1) === QUOTE) {
            value += s.slice(from, q + 1);
            from = q + 2;
            continue;
          }
          if (q + 1 >= n && !last) return -1; // the next chunk may start with the doubling quote
          value += s.slice(from, q);
          i = q + 1;
          break;
        }
        // Text after the closing quote makes the quotes part of the value (as csv-parse's
        // relax_quotes has it): `"a"b` is the four characters "a"b.
        const end = this.fieldEnd(s, i);
        if (end < 0 && !last) return -1;
        const stop = end < 0 ? n : end;
        fields.push(stop > i ? `"${value}"${s.slice(i, stop)}` : value);
        if (value.includes("\n")) this.multiline.add(fields);
        i = stop;
      } else {
        const end = this.fieldEnd(s, i);
        if (end < 0 && !last) return -1;
        const stop = end < 0 ? n : end;
        fields.push(s.slice(i, stop));
        i = stop;
      }
      if (i >= n) {
        // The text ended the record (only when `last`).
        out.push(fields);
        this.line += this.lines(s, at, n);
        return n;
      }
      const c = s.charCodeAt(i);
      if (c === d) {
        i++;
        if (i >= n && !last) return -1;
        if (i >= n) {
          fields.push("");
          out.push(fields);
          return n;
        }
        continue;
      }
      // A line ending: \n, \r\n, or \r in a file of \r endings.
      const next = c === CR && !this.crOnly ? i + 2 : i + 1; // fieldEnd stops at \r only before \n
      out.push(fields);
      this.line += this.lines(s, at, next);
      return next;
    }
  }

  /** Line endings in s[from, to). */
  private lines(s: string, from: number, to: number): number {
    const eol = this.crOnly ? "\r" : "\n";
    let count = 0;
    for (let i = s.indexOf(eol, from); i !== -1 && i < to; i = s.indexOf(eol, i + 1)) count++;
    return count;
  }

  /** Where the field starting at `i` ends: at the delimiter or line ending, or -1 at the end of
   *  the text. A \r ends a field only before \n (or in a file of \r endings). */
  private fieldEnd(s: string, i: number): number {
    if (this.crOnly) return this.fieldEndSlow(s, i);
    // indexOf runs natively: the next \n is found once per line and kept while fields pass.
    if (this.lfText !== this.texts || this.lf < i) {
      this.lfText = this.texts;
      this.lf = s.indexOf("\n", i);
      if (this.lf < 0) this.lf = s.length;
    }
    const lf = this.lf;
    const delimiter = s.indexOf(this.delimiterChar, i);
    if (delimiter !== -1 && delimiter < lf) return delimiter;
    if (lf === s.length) return -1;
    return lf > i && s.charCodeAt(lf - 1) === CR ? lf - 1 : lf;
  }

  /** The same, a character at a time, for files of \r endings (where \n also ends a line). */
  private fieldEndSlow(s: string, i: number): number {
    const d = this.delimiter;
    const n = s.length;
    for (let j = i; j < n; j++) {
      const c = s.charCodeAt(j);
      if (c === d || c === LF || c === CR) return j;
    }
    return -1;
  }
}

