// The dump's XLSX: a workbook of one sheet, a header row (bold, frozen) and a row per record
// with typed cells: numbers as numbers, yes/no as booleans, dates, times and timestamps as
// Excel dates with their format, text as text, json and arrays as their JSON text. Streamed
// through ZipWriter, a chunk of rows a piece; a text that comes again is written once, in the
// shared strings after the sheet (as Excel orders them). Excel holds 1,048,576 rows: the dump
// checks the count before the first byte (dump.ts).
import type { ColumnInfo } from "./formats";
import { ZipWriter } from "./zip-stream";

/** Rows under the header that a sheet holds. */
export const XLSX_MAX_ROWS = 1_048_575;
/** Characters in a cell: Excel's limit. */
const MAX_CELL = 32_767;

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG = "http://schemas.openxmlformats.org/package/2006/relationships";
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** The sheet's text a string holds before it goes to the zip writer. */
const PIECE_CHARS = 16 * 1024;

const STYLE = { date: 1, timestamp: 2, time: 3, header: 4 } as const;

const PARTS: [string, string][] = [
  [
    "[Content_Types].xml",
    `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`,
  ],
  ["_rels/.rels", `${XML_HEAD}<Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`],
  [
    "xl/_rels/workbook.xml.rels",
    `${XML_HEAD}<Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/styles" Target="styles.xml"/><Relationship Id="rId3" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
  ],
  [
    "xl/styles.xml",
    `${XML_HEAD}<styleSheet xmlns="${MAIN}"><numFmts count="3"><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/><numFmt numFmtId="165" formatCode="yyyy-mm-dd hh:mm:ss"/><numFmt numFmtId="166" formatCode="hh:mm:ss"/></numFmts>` +
      `<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>` +
      `<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>` +
      `<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>` +
      `<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>` +
      `<cellXfs count="5"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="166" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>` +
      `<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`,
  ],
];

function workbook(sheet: string): string {
  return `${XML_HEAD}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="${escapeXml(sheet)}" sheetId="1" r:id="rId1"/></sheets></workbook>`;
}

/** Excel's rules for a sheet's name: 1 to 31 characters, none of []:*?/\ */
export function sheetName(title: string): string {
  return title.replace(/[[\]:*?/\\]+/g, " ").replace(/\s+/g, " ").trim().slice(0, 31).trim() || "Sheet1";
}

const NEEDS_ESCAPE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff&<>]/;

function escapeXml(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return s;
  // characters XML 1.0 cannot hold at all are left out
  return s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function columnLetters(i: number): string {
  let s = "";
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

const EPOCH = Date.UTC(1899, 11, 30);
/** Before this, Excel's day numbers are off by its 1900 leap day: such dates go as text. */
const FIRST_SERIAL = Date.UTC(1900, 2, 1);

/** An ISO date or timestamp (no zone, as the datastore writes them) as Excel's day number. */
function serial(iso: string): number | null {
  const ms = Date.parse(/T|\s/.test(iso) ? `${iso.replace(" ", "T")}Z` : `${iso}T00:00:00Z`);
  return Number.isFinite(ms) && ms >= FIRST_SERIAL ? (ms - EPOCH) / 86_400_000 : null;
}

function timeSerial(text: string): number | null {
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?$/.exec(text);
  return m ? (Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3] ?? 0)) / 86_400 : null;
}

/** Text whose cell needs more than its characters: a character to escape or leave out, or
 *  whitespace that XML readers trim or fold unless told to keep it. */
const NEEDS_CARE = /[\u0000-\u001f\ufffe\uffff&<>]|^ | $|  /;
const KEEP_SPACE = /^\s|\s$|[\t\n\r]|  /;

/** A text as the `<t>` of a cell or of a shared string. */
function t(text: string): string {
  if (!NEEDS_CARE.test(text)) return `<t>${text}</t>`;
  return `<t${KEEP_SPACE.test(text) ? ' xml:space="preserve"' : ""}>${escapeXml(text)}</t>`;
}

/** The shared strings kept, at most this many characters of them, and none longer than this:
 *  memory stays flat whatever the table holds (past them a cell holds its own text). */
const SHARED_CHARS = 256 * 1024;
const SHARED_LONGEST = 256;

/** The workbook's shared strings: each text once, its cells point to it by number, which makes
 *  the sheet's XML much shorter (less to encode and deflate) where values repeat. */
class SharedStrings {
  /** Texts by number, in the order they were first met (a Map keeps it). */
  readonly index = new Map<string, number>();
  private chars = 0;
  /** Cells that point to a shared string. */
  count = 0;

  /** The text's number, or -1 when it is not kept. */
  of(text: string): number {
    let i = this.index.get(text);
    if (i === undefined) {
      if (text.length > SHARED_LONGEST || this.chars + text.length > SHARED_CHARS) return -1;
      this.index.set(text, (i = this.index.size));
      this.chars += text.length;
    }
    this.count++;
    return i;
  }
}

function textCell(ref: string, text: string, shared: SharedStrings | null, style = 0): string {
  const s = style ? ` s="${style}"` : "";
  if (text.length > MAX_CELL) text = text.slice(0, MAX_CELL);
  const i = shared ? shared.of(text) : -1;
  return i < 0 ? `<c r="${ref}" t="inlineStr"${s}><is>${t(text)}</is></c>` : `<c r="${ref}" t="s"${s}><v>${i}</v></c>`;
}

function cell(col: ColumnInfo, ref: string, v: unknown, shared: SharedStrings): string {
  // a spreadsheet tells no empty text from an empty cell: both are left empty
  if (v === null || v === undefined || v === "") return "";
  switch (col.type) {
    case "int":
    case "float":
    case "int2":
    case "int4":
    case "int8":
    case "float4":
    case "float8":
    case "numeric": {
      const n = Number(v);
      return Number.isFinite(n) ? `<c r="${ref}"><v>${n}</v></c>` : textCell(ref, String(v), shared);
    }
    case "bool":
      return `<c r="${ref}" t="b"><v>${v ? 1 : 0}</v></c>`;
    case "date":
    case "timestamp": {
      const n = typeof v === "string" ? serial(v) : null;
      return n === null ? textCell(ref, String(v), shared) : `<c r="${ref}" s="${STYLE[col.type]}"><v>${n}</v></c>`;
    }
    case "time": {
      const n = typeof v === "string" ? timeSerial(v) : null;
      return n === null ? textCell(ref, String(v), shared) : `<c r="${ref}" s="${STYLE.time}"><v>${n}</v></c>`;
    }
    case "text":
      return textCell(ref, String(v), shared);
    default:
      return textCell(ref, typeof v === "string" && col.type !== "json" ? v : JSON.stringify(v), shared);
  }
}

/** The workbook in pieces: `head` (the fixed parts, the sheet's start and header row), `rows`
 *  for each chunk, then `tail` (the sheet's end, the shared strings and the zip's directory). */
export function xlsxWriter(cols: ColumnInfo[], title: string, zip = new ZipWriter()) {
  const letters = cols.map((_, i) => columnLetters(i));
  const shared = new SharedStrings();
  let r = 1;
  return {
    head(): Uint8Array {
      const header = `<row r="1">${cols.map((c, i) => textCell(`${letters[i]}1`, c.id, null, STYLE.header)).join("")}</row>`;
      return Buffer.concat([
        ...PARTS.map(([name, xml]) => zip.entry(name, xml)),
        zip.entry("xl/workbook.xml", workbook(sheetName(title))),
        zip.begin("xl/worksheets/sheet1.xml"),
        zip.write(
          `${XML_HEAD}<worksheet xmlns="${MAIN}"><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews><sheetData>${header}`,
        ),
      ]);
    },
    rows(rows: unknown[][]): Uint8Array {
      const out: Buffer[] = [];
      let xml = "";
      for (const row of rows) {
        const n = String(++r);
        xml += `<row r="${n}">`;
        for (let i = 0; i < cols.length; i++) xml += cell(cols[i], letters[i] + n, row[i], shared);
        xml += "</row>";
        // handed over in small strings, which V8 frees young
        if (xml.length >= PIECE_CHARS) {
          out.push(zip.write(xml));
          xml = "";
        }
      }
      out.push(zip.write(xml));
      return Buffer.concat(out);
    },
    tail(): Uint8Array {
      const out = [zip.write("</sheetData></worksheet>"), zip.end(), zip.begin("xl/sharedStrings.xml")];
      let xml = `${XML_HEAD}<sst xmlns="${MAIN}" count="${shared.count}" uniqueCount="${shared.index.size}">`;
      for (const text of shared.index.keys()) {
        xml += `<si>${t(text)}</si>`;
        if (xml.length >= PIECE_CHARS) {
          out.push(zip.write(xml));
          xml = "";
        }
      }
      out.push(zip.write(`${xml}</sst>`), zip.end(), zip.finish());
      return Buffer.concat(out);
    },
  };
}
