// The Pivot tab: a cross-tab of the current result by Rows, Columns and a Measure, with row and
// column totals over every matching row; a cell opens its rows in the Table as chips; the URL
// keeps the whole pivot; Download CSV and XLSX hold the cells shown; the API panel shows the
// datastore_aggregate request; one Tab stop with arrow keys between the cells.
import type { Page } from "@playwright/test";
import ExcelJS from "exceljs";
import fs from "node:fs";
import { expect, test } from "./helpers/test";
import { axe } from "./helpers/axe";
import { shot } from "./helpers/explorer";

const CAPTION = "Rows by origin and Month of Departure";

function pivot(page: Page) {
  return page.getByRole("region", { name: CAPTION });
}

function bodyRow(page: Page, key: string) {
  return pivot(page).locator("tbody tr").filter({ has: page.getByRole("rowheader", { name: key, exact: true }) });
}

async function settled(page: Page) {
  await expect(pivot(page)).toHaveAttribute("aria-busy", "false");
}

async function download(page: Page, name: string): Promise<{ name: string; bytes: Buffer }> {
  const group = page.getByRole("group", { name: "Download the pivot" });
  const [file] = await Promise.all([page.waitForEvent("download"), group.getByRole("button", { name }).click()]);
  return { name: file.suggestedFilename(), bytes: fs.readFileSync(await file.path()) };
}

async function openFlightsByMonth(page: Page) {
  await page.goto("/?resource_id=flights-20k");
  await page.getByRole("tab", { name: "Pivot" }).click();
  await page.getByLabel("Rows", { exact: true }).selectOption("origin");
  await page.getByLabel("Columns", { exact: true }).selectOption("date");
  await expect(page.getByLabel("Columns period")).toHaveValue("month");
  await expect(page.getByLabel("Measure", { exact: true })).toHaveValue("count");
  await settled(page);
}

test("flights by origin and month: totals, a cell opens its rows, the URL, CSV and XLSX, the API", async ({ page, request }) => {
  await openFlightsByMonth(page);
  const url = new URL(page.url());
  expect(url.searchParams.get("view")).toBe("pivot");
  expect(url.searchParams.get("rows")).toBe("origin");
  expect(url.searchParams.get("columns")).toBe("date:month");

  const table = pivot(page).getByRole("table");
  await expect(table.getByRole("columnheader", { name: "Month of Departure" })).toBeVisible();
  await expect(table.locator("thead tr").last().getByRole("columnheader")).toHaveText(["origin", "2001-01", "2001-02", "2001-03", "Total"]);
  // 220 airports: the 100 with the most flights, in order of their codes; the rest in the totals
  await expect(table.locator("tbody tr")).toHaveCount(100);
  await expect(table.locator("tbody tr").first().getByRole("rowheader")).toHaveText("ABQ");
  await expect(page.getByRole("tabpanel")).toContainText(
    "The 100 rows with the most matching rows are shown; 120 more rows (896 rows) are left out of the table but counted in the totals.",
  );
  await expect(page.getByRole("tabpanel")).toContainText(`${CAPTION}, over 20,000 rows.`);
  await expect(bodyRow(page, "DFW").getByRole("cell")).toHaveText(["358", "345", "400", "1,103"]);
  await expect(table.locator("tfoot tr").getByRole("cell")).toHaveText(["6,937", "5,964", "7,099", "20,000"]);
  // shaded by value: the largest cell deepest
  const shade = (cell: string) =>
    bodyRow(page, "DFW").getByRole("cell").nth(["358", "345", "400"].indexOf(cell)).evaluate((td) => getComputedStyle(td).backgroundColor);
  expect(await shade("400")).toMatch(/rgba\(37, 99, 235, 0\.46/);
  await shot(page, "90-pivot-origin-month");

  // the whole pivot is in the URL: a reload shows the same
  const pivotUrl = page.url();
  await page.reload();
  await expect(page.getByRole("tab", { name: "Pivot" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByLabel("Columns", { exact: true })).toHaveValue("date");
  await settled(page);
  await expect(bodyRow(page, "DFW").getByRole("cell")).toHaveText(["358", "345", "400", "1,103"]);
  expect(page.url()).toBe(pivotUrl);

  const csv = await download(page, "Download CSV");
  expect(csv.name).toBe(`US flights (20,000) - ${CAPTION}.csv`);
  const lines = csv.bytes.toString("utf8").split("\r\n");
  expect(lines.slice(0, 3)).toEqual([",Month of Departure,,,", "origin,2001-01,2001-02,2001-03,Total", "ABQ,38,45,40,123"]);
  expect(lines).toContain("DFW,358,345,400,1103");
  expect(lines.at(-2)).toBe("Total,6937,5964,7099,20000");
  expect(lines).toHaveLength(2 + 100 + 1 + 1);

  const xlsx = await download(page, "Download XLSX");
  expect(xlsx.name).toBe(`US flights (20,000) - ${CAPTION}.xlsx`);
  // the same cells as the CSV: text as text, numbers as numbers
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(xlsx.bytes as unknown as ArrayBuffer);
  const sheet = book.worksheets[0];
  expect(sheet.name).toBe("US flights (20,000)");
  const cells = (r: number) => Array.from({ length: 5 }, (_, c) => sheet.getRow(r).getCell(c + 1).value ?? null);
  expect([cells(1), cells(2), cells(3)]).toEqual([
    [null, "Month of Departure", null, null, null],
    ["origin", "2001-01", "2001-02", "2001-03", "Total"],
    ["ABQ", 38, 45, 40, 123],
  ]);
  expect(sheet.rowCount).toBe(lines.length - 1);
  expect(cells(sheet.rowCount)).toEqual(["Total", 6937, 5964, 7099, 20000]);

  // the API panel shows the cells' request, and it answers the pivot's figures
  await page.getByRole("button", { name: /^API/ }).click();
  await expect(page.getByRole("heading", { name: "POST body (to /api/action/datastore_aggregate)" })).toBeVisible();
  await page.getByRole("button", { name: "Copy POST body" }).click();
  const body = JSON.parse(await page.evaluate(() => navigator.clipboard.readText()));
  expect(body).toEqual({
    resource_id: "flights-20k",
    group_by: ["origin", { field: "date", period: "month" }],
    metrics: [{ fn: "count" }],
    limit: 10000,
    totals: true,
  });
  const answer = (await (await request.post("/api/action/datastore_aggregate", { data: body })).json()).result;
  expect(answer.totals.values.count).toBe(20000);
  expect(answer.groups).toContainEqual({ key: ["DFW", "2001-02-01T00:00:00"], values: { count: 345 } });

  // a cell: its keys become chips, and the Table shows its rows
  await bodyRow(page, "DFW").getByRole("button", { name: "345" }).click();
  await expect(page.getByRole("tab", { name: "Table" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("button", { name: "origin: DFW", exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "date: 2001-02-01 to 2001-02-28", exact: true })).toBeVisible();
  await expect(page.getByText("345 of 20,000 records match")).toBeVisible();
  await shot(page, "91-pivot-cell-table");

  // back to the pivot: it follows the chips
  await page.getByRole("tab", { name: "Pivot" }).click();
  await settled(page);
  await expect(pivot(page).locator("tbody tr")).toHaveCount(1);
  await expect(bodyRow(page, "DFW").getByRole("cell")).toHaveText(["345", "345"]);
});

test("two Rows fields and an average, from the URL; the keyboard moves between cells", async ({ page }) => {
  await page.goto('/?resource_id=flights-20k&view=pivot&filters={"origin":["SEA","PDX"]}&rows=origin,distance:1000&columns=date:quarter&measure=avg:delay');
  await expect(page.getByLabel("Second row field", { exact: true })).toHaveValue("distance");
  await expect(page.getByLabel("Second row field bin width")).toHaveValue("1000");
  await expect(page.getByLabel("Value", { exact: true })).toHaveValue("delay");
  const region = page.getByRole("region", { name: "Average Delay (min) by origin and Distance (miles) in bins of 1000 and Quarter of Departure" });
  await expect(region).toHaveAttribute("aria-busy", "false");
  await expect(region.locator("thead tr").last().getByRole("columnheader")).toHaveText(["origin", "Distance (miles) in bins of 1000", "2001-Q1", "Total"]);
  await expect(region.locator("tbody tr").first().getByRole("rowheader")).toHaveText(["PDX", "0 to 999"]);

  // one Tab stop: the first cell; arrows move across and down
  const first = region.locator("tbody tr").first().getByRole("button").first();
  await first.focus();
  await expect(region.getByRole("button").and(page.locator("[tabindex='0']"))).toHaveCount(1);
  await page.keyboard.press("ArrowRight");
  await expect(region.locator("tbody tr").first().getByRole("button").nth(1)).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(region.locator("tbody tr").nth(1).getByRole("button").nth(1)).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("tab", { name: "Table" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("button", { name: "distance: 1000 to 1999", exact: true })).toBeVisible();

  // a bin width and a period chosen in the controls go into the URL
  await page.goBack();
  await expect(page.getByRole("tab", { name: "Pivot" })).toHaveAttribute("aria-selected", "true");
  await page.getByLabel("Second row field bin width").fill("500");
  await page.getByLabel("Second row field bin width").press("Enter");
  await page.getByLabel("Columns period").selectOption("month");
  await expect(page).toHaveURL(/rows=origin%2Cdistance%3A500&columns=date%3Amonth/);
  const byMonth = page.getByRole("region", { name: "Average Delay (min) by origin and Distance (miles) in bins of 500 and Month of Departure" });
  await expect(byMonth.locator("tbody tr").first().getByRole("rowheader")).toHaveText(["PDX", "0 to 499"]);
});

test("more combinations than one call returns: the shown cells are asked for again, all read", async ({ page }) => {
  // 2,977 routes by 90 days: 18,825 cells, past the 10,000 of one call
  await page.goto("/?resource_id=flights-20k&view=pivot&rows=origin,destination&columns=date:day");
  const region = page.getByRole("region", { name: "Rows by origin and destination and Day of Departure" });
  await expect(region).toHaveAttribute("aria-busy", "false");
  const panel = page.getByRole("tabpanel");
  await expect(panel).toContainText("The 100 rows with the most matching rows are shown; 2,877 more rows");
  await expect(panel).toContainText("The first 20 columns are shown; 70 more columns");
  await expect(panel).not.toContainText("Some cells are not shown");
  // LAX to PHX (not PHX to LAX): the first key's header, then the second's
  const route = region.locator('tbody tr:has(th:nth-child(1):text-is("LAX")):has(th:nth-child(2):text-is("PHX"))');
  await expect(route.getByRole("cell")).toHaveText(["1", "", "1", "", "", "", "1", "1", "", "", "1", "1", "1", "", "", "", "1", "", "1", "", "59"]);
});

for (const colorScheme of ["light", "dark"] as const) {
  test(`axe: the Pivot tab in ${colorScheme} mode`, async ({ page }) => {
    await page.emulateMedia({ colorScheme });
    await openFlightsByMonth(page);
    const results = await axe(page).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
    await shot(page, `92-pivot-${colorScheme}`, { viewport: true });
  });
}
