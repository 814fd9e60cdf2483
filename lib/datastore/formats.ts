// Record renderings shared by datastore_search's records_format and the dump endpoint:
// PostgreSQL COPY-style CSV/TSV lines and the XML of CKAN's dump (contract §6.6, §9).
import { toText, type TypeName } from "./types";

export interface ColumnInfo {
  id: string;
  type: TypeName | "int" | "float";
}

/** One cell as PG text: typed renderings from types.ts; `_id` and rank as plain numbers. */
export function cellText(col: ColumnInfo, value: unknown): string | null {
  if (col.type === "int" || col.type === "float") return value === null ? null : String(value);
  return toText(col.type, value);
}

/** A COPY … CSV/TSV line: quote only when needed, NULL as an empty unquoted field, "" as `""`. */
export function delimitedLine(cells: (string | null)[], delimiter: string): string {
  return (
    cells
      .map((c) => {
        if (c === null) return "";
        if (c === "" || c.includes(delimiter) || c.includes('"') || c.includes("\n") || c.includes("\r")) {
          return `"${c.replace(/"/g, '""')}"`;
        }
        return c;
      })
      .join(delimiter) + "\n"
  );
}

export function rowLine(cols: ColumnInfo[], row: unknown[], delimiter: string): string {
  return delimitedLine(
    row.map((v, i) => cellText(cols[i], v)),
    delimiter,
  );
}

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

export function xmlEscape(s: string): string {
  // Characters XML 1.0 cannot carry at all are dropped rather than emitted invalid.
  return s.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]).replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, "");
}

/** An XML element name from a field id: invalid name characters become `_`. */
export function xmlName(id: string): string {
  const name = id.replace(/[^\p{L}\p{N}_.-]/gu, "_");
  return /^[\p{L}_]/u.test(name) ? name : `_${name}`;
}

function xmlValue(value: unknown): string {
  if (Array.isArray(value)) {
    return value.map((v, i) => `<value key="${i}">${xmlValue(v)}</value>`).join("");
  }
  if (value !== null && typeof value === "object") {
    return Object.entries(value)
      .map(([k, v]) => `<value key="${xmlEscape(k)}">${xmlValue(v)}</value>`)
      .join("");
  }
  return value === null ? "" : xmlEscape(String(value));
}

/** One `<row>` of CKAN's XML dump; `_id` becomes an attribute, NULLs `xsi:nil`. */
export function xmlRow(cols: ColumnInfo[], row: unknown[]): string {
  let attrs = "";
  let body = "";
  cols.forEach((col, i) => {
    const v = row[i];
    if (col.id === "_id") {
      attrs = ` _id="${xmlEscape(String(v))}"`;
      return;
    }
    const name = xmlName(col.id);
    if (v === null || v === undefined) body += `<${name} xsi:nil="true"/>`;
    else if (col.type === "bool") body += `<${name}>${v ? "True" : "False"}</${name}>`;
    else body += `<${name}>${xmlValue(v)}</${name}>`;
  });
  return `<row${attrs}>${body}</row>\n`;
}
