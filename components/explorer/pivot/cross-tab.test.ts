import { describe, expect, it } from "vitest";
import ExcelJS from "exceljs";
import type { DatastoreField, GroupedResult } from "@/lib/api-client";
import { translator } from "@/lib/i18n";
import type { PivotSettings } from "@/lib/view-state";
import { csvText } from "../chart/chart-numbers";
import { buildCrossTab, compareKeys, crossTabGrid, keyText, shown, UNREAD, type CrossTab } from "./cross-tab";
import { valueText } from "./pivot-table";
import { xlsxBytes } from "./pivot-xlsx";

const fields: DatastoreField[] = [
  { id: "date", type: "timestamp", info: { label: "Departure" } },
  { id: "delay", type: "int4", info: { label: "Delay (min)" } },
  { id: "lat", type: "float8" },
  { id: "origin", type: "text" },
];

function result(groups: [unknown[], Record<string, number | null>][], extra: Partial<GroupedResult> = {}): GroupedResult {
  return {
    resource_id: "f",
    group_by: [],
    metrics: [],
    total: 100,
    groups: groups.map(([key, values]) => ({ key, values })),
    others: { groups: 0, count: 0 },
    partial: false,
    ...extra,
  };
}

const byMonth: PivotSettings = { rows: [{ field: "origin" }], columns: { field: "date", period: "month" }, measure: { fn: "count", field: null } };

describe("buildCrossTab", () => {
  it("lays out rows by columns, with totals from their own calls", () => {
    const t = buildCrossTab(byMonth, fields, {
      cells: result(
        [
          [["SEA", "2001-01-01T00:00:00"], { count: 5 }],
          [["PDX", "2001-02-01T00:00:00"], { count: 3 }],
          [["SEA", "2001-02-01T00:00:00"], { count: 2 }],
          [[null, "2001-01-01T00:00:00"], { count: 1 }],
        ],
        { totals: { count: 11, values: { count: 11 } } },
      ),
      // the totals count every matching row: here more than the shown cells hold
      rows: result([[["SEA"], { count: 7 }], [["PDX"], { count: 4 }], [[null], { count: 1 }]]),
      columns: result([[["2001-02-01T00:00:00"], { count: 6 }], [["2001-01-01T00:00:00"], { count: 6 }]]),
    });
    expect(t.caption).toBe("Rows by origin and Month of Departure");
    expect(t.keyHeaders).toEqual(["origin"]);
    expect(t.columnHeader).toBe("Month of Departure");
    // keys in order, empty last
    expect(t.columns.map((c) => c.label)).toEqual(["2001-01", "2001-02"]);
    expect(t.rows.map((r) => r.labels[0])).toEqual(["PDX", "SEA", "(empty)"]);
    expect(t.rows.map((r) => r.cells)).toEqual([[null, 3], [5, 2], [1, null]]);
    expect(t.rows.map((r) => r.total)).toEqual([4, 7, 1]);
    expect(t.columnTotals).toEqual([6, 6]);
    expect(t.grandTotal).toBe(11);
    expect(t.max).toBe(5);
    expect(t.notes).toEqual([]);
    expect(crossTabGrid(t)).toEqual([
      [null, "Month of Departure", null, null],
      ["origin", "2001-01", "2001-02", "Total"],
      ["PDX", null, 3, 4],
      ["SEA", 5, 2, 7],
      ["(empty)", 1, null, 1],
      ["Total", 6, 6, 11],
    ]);
  });

  it("says which rows and columns are left out, and marks cells it could not read", () => {
    const t = buildCrossTab(byMonth, fields, {
      cells: result([[["SEA", "2001-01-01T00:00:00"], { count: 5 }]], { others: { groups: 3, count: 9 }, totals: { count: 40, values: { count: 40 } } }),
      rows: result([[["SEA"], { count: 20 }], [["PDX"], { count: 15 }]], { others: { groups: 2, count: 5 } }),
      columns: result([[["2001-01-01T00:00:00"], { count: 25 }]], { others: { groups: 1, count: 15 } }),
    });
    expect(t.rows.map((r) => r.cells)).toEqual([[undefined], [5]]);
    expect(t.notes).toEqual([
      "The 2 rows with the most matching rows are shown; 2 more rows (5 rows) are left out of the table but counted in the totals.",
      "The first 1 column is shown; 1 more column (15 rows) is left out of the table but counted in the totals.",
      "Some cells are not shown (…): the rows and columns make more than 1 combinations. Narrow the search, or choose fewer Rows, to see them all.",
    ]);
    expect(crossTabGrid(t)[2]).toEqual(["PDX", UNREAD, 15]);

    // the shown cells asked again: read from that answer, complete, no note
    const again = buildCrossTab(byMonth, fields, {
      cells: result([[["SEA", "2001-01-01T00:00:00"], { count: 5 }]], { others: { groups: 3, count: 9 }, totals: { count: 40, values: { count: 40 } } }),
      rows: result([[["SEA"], { count: 20 }], [["PDX"], { count: 15 }]], { others: { groups: 2, count: 5 } }),
      columns: result([[["2001-01-01T00:00:00"], { count: 25 }]], { others: { groups: 1, count: 15 } }),
      shown: result([[["PDX", "2001-01-01T00:00:00"], { count: 4 }]]),
    });
    expect(again.rows.map((r) => r.cells)).toEqual([[4], [null]]);
    expect(again.grandTotal).toBe(40);
    expect(again.notes).toHaveLength(2);
  });

  it("speaks the reader's language: caption, headers, keys, notes and the grid's totals", () => {
    const pivot: PivotSettings = { rows: [{ field: "origin" }, { field: "delay", bin: 15 }], columns: { field: "date", period: "month" }, measure: { fn: "sum", field: "delay" } };
    const data = {
      cells: result([[[null, 0, "2001-01-01T00:00:00"], { sum_delay: 1200 }]], { totals: { count: 40, values: { sum_delay: 1200 } } }),
      rows: result([[[null, 0], { sum_delay: 1200 }]], { others: { groups: 2, count: 1500 } }),
      columns: result([[["2001-01-01T00:00:00"], { sum_delay: 1200 }]]),
    };
    const fr = buildCrossTab(pivot, fields, data, translator("fr", "fr-FR"));
    expect(fr.caption).toBe("Somme de Delay (min) par origin et Delay (min) par classes de 15 et Mois de Departure");
    expect(fr.rows[0].labels).toEqual(["(vide)", "0 à 14"]);
    expect(fr.notes[0]).toMatch(/^La ligne qui compte le plus de lignes correspondantes est affichée ; 2 autres lignes \(1\u202f500 lignes\) sont laissées hors du tableau/);
    expect(crossTabGrid(fr, translator("fr", "fr-FR")).at(-1)?.[0]).toBe("Total");
    const de = buildCrossTab(pivot, fields, data, translator("de", "de-DE"));
    expect(de.caption).toBe("Summe von Delay (min) nach origin und Delay (min) in Klassen zu 15 und Monat von Departure");
    expect(de.notes[0]).toBe("Die Zeile mit den meisten passenden Zeilen wird gezeigt; 2 weitere Zeilen (1.500 Zeilen) fehlen in der Tabelle, zählen aber in den Summen.");
    expect(crossTabGrid(de, translator("de", "de-DE")).at(-1)?.[0]).toBe("Summe");
  });

  it("without Columns, the measure is the one column and the total its grand total", () => {
    const pivot: PivotSettings = { rows: [{ field: "origin" }, { field: "delay", bin: 15 }], columns: null, measure: { fn: "avg", field: "delay" } };
    const t = buildCrossTab(pivot, fields, {
      cells: result(
        [
          [["SEA", 0], { avg_delay: 3.14159, count: 10 }],
          [["SEA", -15], { avg_delay: -7.5, count: 2 }],
        ],
        { totals: { count: 12, values: { avg_delay: 1.3680, count: 12 } } },
      ),
    });
    expect(t.caption).toBe("Average Delay (min) by origin and Delay (min) in bins of 15");
    expect(crossTabGrid(t)).toEqual([
      ["origin", "Delay (min) in bins of 15", "Average Delay (min)"],
      ["SEA", "-15 to -1", -7.5],
      ["SEA", "0 to 14", 3.14],
      ["Total", null, 1.37],
    ]);
    expect(t.max).toBe(7.5);
  });

  it("writes the CSV and the XLSX with exactly the cells shown", async () => {
    const t: CrossTab = buildCrossTab(
      { rows: [{ field: "origin" }], columns: { field: "lat", bin: 0.5 }, measure: { fn: "sum", field: "delay" } },
      fields,
      {
        cells: result([[["A, \"B\"", 45], { sum_delay: 1234567 }], [["C", 45.5], { sum_delay: -2.257 }]], { totals: { count: 3, values: { sum_delay: 1234564.743 } } }),
        rows: result([[["A, \"B\""], { sum_delay: 1234567, count: 1 }], [["C"], { sum_delay: -2.257, count: 2 }]]),
        columns: result([[[45], { sum_delay: 1234567 }], [[45.5], { sum_delay: -2.257 }]]),
      },
    );
    const grid = crossTabGrid(t);
    // what the table shows, cell by cell (spans as empty cells, numbers in the reader's digits)
    const onScreen = grid.map((row) => row.map((c) => (typeof c === "number" ? valueText(c) : (c ?? ""))));
    expect(onScreen[1]).toEqual(["origin", "45 to under 45.5", "45.5 to under 46", "Total"]);
    expect(onScreen[2]).toEqual(['A, "B"', "1,234,567", "", "1,234,567"]);
    expect(onScreen[3]).toEqual(["C", "", "-2.26", "-2.26"]);
    expect(onScreen[4]).toEqual(["Total", "1,234,567", "-2.26", "1,234,564.74"]);

    const csv = csvText(grid);
    const lines = csv.split("\r\n").slice(0, -1);
    expect(lines).toEqual([
      ",lat in bins of 0.5,,",
      "origin,45 to under 45.5,45.5 to under 46,Total",
      '"A, ""B""",1234567,,1234567',
      "C,,-2.26,-2.26",
      "Total,1234567,-2.26,1234564.74",
    ]);
    // each number cell reads as the table shows it, without the digit grouping
    expect(onScreen[4].map((c) => c.replace(/,/g, ""))).toEqual(lines[4].split(","));

    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await xlsxBytes(grid, "US flights: [pivot]"));
    const sheet = book.worksheets[0];
    expect(sheet.name).toBe("US flights pivot");
    const read: unknown[][] = [];
    for (let r = 1; r <= grid.length; r++) {
      read.push(grid[0].map((_, c) => sheet.getRow(r).getCell(c + 1).value ?? null));
    }
    expect(read).toEqual(grid);
  });
});

describe("keys", () => {
  it("read as people say them", () => {
    expect(keyText("2001-04-01T00:00:00", { field: "date", period: "quarter" }, fields)).toBe("2001-Q2");
    expect(keyText("2001-01-08T00:00:00", { field: "date", period: "week" }, fields)).toBe("2001-01-08");
    expect(keyText(2001, { field: "date", period: "year" }, fields)).toBe("2001");
    expect(keyText(30, { field: "delay", bin: 1 }, fields)).toBe("30");
    expect(keyText(0.1, { field: "lat", bin: 0.2 }, fields)).toBe("0.1 to under 0.3");
    expect(keyText("", { field: "origin" }, fields)).toBe("(empty)");
    expect(keyText(true, { field: "origin" }, fields)).toBe("true");
  });

  it("sort by value, empty last", () => {
    const keys = [[null], [10], [-2], [9]];
    expect([...keys].sort(compareKeys)).toEqual([[-2], [9], [10], [null]]);
    expect([["b", 1], ["a", 2], ["a", null], ["a", 1]].sort(compareKeys)).toEqual([["a", 1], ["a", 2], ["a", null], ["b", 1]]);
  });

  it("round as shown", () => {
    expect([shown(1.005), shown("12.3456"), shown(null), shown("x"), shown(7)]).toEqual([1, 12.35, null, null, 7]);
  });
});
