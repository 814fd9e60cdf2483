// CKAN sort strings <-> clauses. Grammar: `FIELD [asc|desc] [nulls first|last]`, comma separated,
// FIELD optionally in double quotes (field names may hold spaces or commas, never `"`).
import type { SortClause } from "./types";

const SIMPLE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_]*$/;

/** Splits on commas outside double quotes. */
function splitClauses(sort: string): string[] {
  const out: string[] = [];
  let current = "";
  let quoted = false;
  for (const ch of sort) {
    if (ch === '"') quoted = !quoted;
    if (ch === "," && !quoted) {
      out.push(current);
      current = "";
    } else {
      current += ch;
    }
  }
  out.push(current);
  return out.map((s) => s.trim()).filter(Boolean);
}

export function parseSort(sort: string): SortClause[] {
  const clauses: SortClause[] = [];
  for (const raw of splitClauses(sort)) {
    let field: string;
    let rest: string;
    if (raw.startsWith('"')) {
      const end = raw.indexOf('"', 1);
      if (end < 0) continue;
      field = raw.slice(1, end);
      rest = raw.slice(end + 1);
    } else {
      const m = /^(.*?)(\s+(asc|desc))?(\s+nulls\s+(first|last))?$/i.exec(raw);
      if (!m) continue;
      field = m[1];
      rest = raw.slice(m[1].length);
    }
    if (!field) continue;
    clauses.push({ field, desc: /^\s*desc\b/i.test(rest) });
  }
  return clauses;
}

function quoteSortField(field: string): string {
  return SIMPLE_NAME.test(field) ? field : `"${field}"`;
}

export function formatSort(clauses: SortClause[]): string {
  return clauses.map((c) => `${quoteSortField(c.field)}${c.desc ? " desc" : ""}`).join(", ");
}
