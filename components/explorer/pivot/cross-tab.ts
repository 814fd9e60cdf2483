// A pivot's answers as the cross-tab on screen: row keys down the side, column keys across,
// a cell per pair, row and column totals over every matching row (not only the cells shown) and
// the grand total; notes when rows, columns or cells are left out. `crossTabGrid` is the table
// cell by cell, as shown: the CSV and XLSX downloads write exactly that. Pure.
import { isIntegerType } from "../format";
import type { DatastoreField, GroupedResult } from "@/lib/api-client";
import { english, type Translate } from "@/lib/i18n";
import type { PivotKey, PivotSettings } from "@/lib/view-state";
import { periodText } from "../chart/chart-numbers";
import { keyLabel, measureLabel } from "./pivot-fields";
import { largestFirst, measureName } from "./pivot-request";

/** A cell's value as shown; undefined: not read (more combinations than the API returns). */
export type Value = number | null | undefined;

export type CrossTabRow = { key: unknown[]; labels: string[]; cells: Value[]; total: Value };

export type CrossTab = {
  /** "Rows by origin and Month of Departure". */
  caption: string;
  /** One header per row key. */
  keyHeaders: string[];
  /** The Columns key's header; null without Columns (then one column: the measure). */
  columnHeader: string | null;
  columns: { key: unknown; label: string }[];
  rows: CrossTabRow[];
  /** Per column, over every matching row. */
  columnTotals: Value[];
  grandTotal: Value;
  /** A Total column (with Columns). */
  rowTotals: boolean;
  /** The largest absolute value among the cells, for shading. */
  max: number;
  notes: string[];
};

/** `shown`: the cells of the shown rows and columns alone, when `cells` was cut. */
export type PivotData = { cells: GroupedResult; rows?: GroupedResult; columns?: GroupedResult; shown?: GroupedResult };

/** A number as the table shows it: two decimals at most (an average), else as counted. */
export function shown(v: unknown): number | null {
  if (v === null || v === undefined || v === "") return null;
  const n = Number(v);
  return Number.isFinite(n) ? Number(n.toFixed(2)) : null;
}

function edge(n: number): number {
  return Number(n.toPrecision(12));
}

/** A key's value in words: "DFW", "2001-01", "2001-Q1", "0 to 14", "(empty)". Bin edges are
 *  written as the API gives them (no digit grouping), as the filter a cell opens names them. */
export function keyText(value: unknown, key: PivotKey, fields: DatastoreField[], t: Translate = english): string {
  if (value === null || value === undefined || value === "") return t("pivot.emptyKey");
  if (key.period) return periodText(value, key.period === "week" || key.period === "day" ? "day" : key.period);
  if (key.bin !== undefined && typeof value === "number") {
    const type = fields.find((f) => f.id === key.field)?.type ?? "";
    if (isIntegerType(type) && Number.isInteger(key.bin)) {
      return key.bin === 1 ? String(value) : t("pivot.binRange", { from: String(value), to: String(value + key.bin - 1) });
    }
    return t("pivot.binUnder", { from: String(value), to: String(edge(value + key.bin)) });
  }
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** Keys in order: numbers by value, text as the API sorts it (code points), empty last. */
export function compareKeys(a: unknown[], b: unknown[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    const xEmpty = x === null || x === undefined || x === "";
    const yEmpty = y === null || y === undefined || y === "";
    if (xEmpty || yEmpty) {
      if (xEmpty !== yEmpty) return xEmpty ? 1 : -1;
      continue;
    }
    if (typeof x === "number" && typeof y === "number") {
      if (x !== y) return x - y;
      continue;
    }
    const s = String(x);
    const t = String(y);
    if (s !== t) return s < t ? -1 : 1;
  }
  return 0;
}

const id = (key: unknown[]) => JSON.stringify(key);

function leftOut(keys: PivotKey[], shown: number, others: { groups: number; count: number }, what: "rows" | "columns", t: Translate): string {
  const which = t(`pivot.shown.${what}.${largestFirst(keys) ? "largest" : "first"}`, { count: shown });
  return `${which} ${t(`pivot.leftOut.${what}`, { count: others.groups, rows: t("count.rows", { count: others.count }) })}`;
}

export function buildCrossTab(pivot: PivotSettings, fields: DatastoreField[], data: PivotData, t: Translate = english): CrossTab {
  const name = measureName(pivot.measure);
  const measure = measureLabel(pivot.measure, fields, t);
  const keyHeaders = pivot.rows.map((k) => keyLabel(k, fields, t));
  const all = [...keyHeaders, ...(pivot.columns ? [keyLabel(pivot.columns, fields, t)] : [])];
  const caption = t("pivot.caption", { measure, keys: all.reduce((a, b) => t("pivot.and", { a, b })) });
  const grandTotal = data.cells.totals ? shown(data.cells.totals.values[name]) : undefined;
  const notes: string[] = [];
  const rowGroups = (data.rows ?? data.cells).groups;
  const rowOthers = (data.rows ?? data.cells).others;
  const sortedRows = [...rowGroups].sort((a, b) => compareKeys(a.key, b.key));
  if (rowOthers.groups > 0) notes.push(leftOut(pivot.rows, sortedRows.length, rowOthers, "rows", t));
  const labelsOf = (key: unknown[]) => key.map((v, i) => keyText(v, pivot.rows[i], fields, t));

  if (!pivot.columns || !data.columns) {
    const rows = sortedRows.map((g) => ({ key: g.key, labels: labelsOf(g.key), cells: [shown(g.values[name])], total: undefined }));
    return {
      caption,
      keyHeaders,
      columnHeader: null,
      columns: [{ key: null, label: measure }],
      rows,
      columnTotals: [grandTotal],
      grandTotal,
      rowTotals: false,
      max: maxOf(rows),
      notes,
    };
  }

  const colKey = pivot.columns;
  const columnGroups = [...data.columns.groups].sort((a, b) => compareKeys(a.key, b.key));
  if (data.columns.others.groups > 0) notes.push(leftOut([colKey], columnGroups.length, data.columns.others, "columns", t));
  const read = data.shown ?? data.cells;
  const cells = new Map(read.groups.map((g) => [id(g.key), shown(g.values[name])]));
  // a pair missing from a complete answer has no rows; from a cut one, it was not read
  const missing: Value = read.others.groups > 0 ? undefined : null;
  let unread = false;
  const rows = sortedRows.map((g) => {
    const rowCells = columnGroups.map((c) => {
      const k = id([...g.key, c.key[0]]);
      if (cells.has(k)) return cells.get(k);
      if (missing === undefined) unread = true;
      return missing;
    });
    return { key: g.key, labels: labelsOf(g.key), cells: rowCells, total: shown(g.values[name]) };
  });
  if (unread) {
    notes.push(t("pivot.unread", { count: read.groups.length }));
  }
  return {
    caption,
    keyHeaders,
    columnHeader: keyLabel(colKey, fields, t),
    columns: columnGroups.map((c) => ({ key: c.key[0], label: keyText(c.key[0], colKey, fields, t) })),
    rows,
    columnTotals: columnGroups.map((c) => shown(c.values[name])),
    grandTotal,
    rowTotals: true,
    max: maxOf(rows),
    notes,
  };
}

function maxOf(rows: CrossTabRow[]): number {
  let max = 0;
  for (const r of rows) for (const v of r.cells) if (typeof v === "number") max = Math.max(max, Math.abs(v));
  return max;
}

export type GridCell = string | number | null;

export const UNREAD = "…";

function gridValue(v: Value): GridCell {
  return v === undefined ? UNREAD : v;
}

/**
 * The table cell by cell, as shown (spans written out as empty cells): with Columns, a first
 * header row holding the Columns header over the column values, then the row keys' headers, the
 * column values and "Total"; a row per row key; the totals row last.
 */
export function crossTabGrid(table: CrossTab, t: Translate = english): GridCell[][] {
  const pad = (n: number) => Array.from({ length: n }, () => null);
  const total = t("pivot.total");
  const grid: GridCell[][] = [];
  if (table.columnHeader !== null) grid.push([...pad(table.keyHeaders.length), table.columnHeader, ...pad(table.columns.length - 1), ...(table.rowTotals ? [null] : [])]);
  grid.push([...table.keyHeaders, ...table.columns.map((c) => c.label), ...(table.rowTotals ? [total] : [])]);
  for (const r of table.rows) grid.push([...r.labels, ...r.cells.map(gridValue), ...(table.rowTotals ? [gridValue(r.total)] : [])]);
  grid.push([total, ...pad(table.keyHeaders.length - 1), ...table.columnTotals.map(gridValue), ...(table.rowTotals ? [gridValue(table.grandTotal)] : [])]);
  return grid;
}
