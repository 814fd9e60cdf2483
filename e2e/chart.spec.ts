// The Chart tab: a chart of the current result whose settings live in the URL (a reload draws
// the same chart), with a caption, its numbers as a table, downloads (PNG, SVG, CSV of the
// numbers) and, in the API panel, the request that drew it.
import type { Download, Page } from "@playwright/test";
import fs from "node:fs";
import { expect, test } from "./helpers/test";
import path from "node:path";
import { ARTIFACTS, shot } from "./helpers/explorer";
import { axe } from "./helpers/axe";

function figure(page: Page) {
  return page.getByRole("tabpanel").locator("figure");
}

function downloads(page: Page) {
  return page.getByRole("group", { name: "Download the chart" });
}

async function download(page: Page, name: string): Promise<{ file: Download; bytes: Buffer }> {
  const [file] = await Promise.all([page.waitForEvent("download"), downloads(page).getByRole("button", { name }).click()]);
  return { file, bytes: fs.readFileSync(await file.path()) };
}

async function numbersTable(page: Page) {
  const details = figure(page).locator("details");
  if (!(await details.evaluate((d: HTMLDetailsElement) => d.open))) await details.getByText("Show the numbers as a table").click();
  return figure(page).getByRole("table");
}

test("a bar chart of flights per origin: URL, reload, caption, numbers, downloads, API", async ({ page, request }) => {
  await page.goto("/?resource_id=flights-20k");
  await page.getByRole("tab", { name: "Chart" }).click();
  await page.getByLabel("Chart type").selectOption("bar");
  await page.getByLabel("Group by").selectOption("origin");
  await page.getByLabel("Measure").selectOption("count");
  await expect(page).toHaveURL(/view=chart/);
  await expect(page).toHaveURL(/x=origin/);

  const caption = "US flights (20,000): rows per origin, count, 20,000 rows";
  await expect(figure(page).locator("figcaption")).toContainText(caption);
  // 220 airports: the top 30 bars, and the rest counted
  await expect(figure(page).locator("figcaption")).toContainText("The top 30 values are shown, and 190 more values (6,695 rows).");
  const svg = figure(page).locator("svg[role=img]").first();
  await expect(svg).toHaveAttribute("aria-label", caption);
  await expect(svg.locator("g[aria-label='bar'] rect")).toHaveCount(30);

  const table = await numbersTable(page);
  await expect(table.locator("thead th")).toHaveText(["origin", "Rows"]);
  await expect(table.locator("tbody tr")).toHaveCount(30);
  await expect(table.locator("tbody tr").first().locator("td")).toHaveText(["DFW", "1,103"]);
  await shot(page, "50-chart-bar-origin");

  const before = page.url();
  await page.reload();
  await expect(page.getByLabel("Group by")).toHaveValue("origin");
  await expect(figure(page).locator("figcaption")).toContainText(caption);
  await expect(figure(page).locator("svg[role=img] g[aria-label='bar'] rect")).toHaveCount(30);
  expect(page.url()).toBe(before);

  const csv = await download(page, "Download CSV");
  expect(csv.file.suggestedFilename()).toBe("US flights (20,000) - rows per origin, count.csv");
  const lines = csv.bytes.toString("utf8").trimEnd().split("\r\n");
  expect(lines[0]).toBe("origin,Rows");
  expect(lines[1]).toBe("DFW,1103");
  expect(lines).toHaveLength(31);

  const png = await download(page, "Download PNG");
  expect(png.file.suggestedFilename()).toMatch(/\.png$/);
  expect(png.bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  // drawn at twice the chart's size
  const width = Number(await svg.getAttribute("width"));
  expect(png.bytes.readUInt32BE(16)).toBe(width * 2);
  fs.writeFileSync(path.join(ARTIFACTS, "55-chart-bar-download.png"), png.bytes);

  const svgFile = await download(page, "Download SVG");
  expect(svgFile.file.suggestedFilename()).toMatch(/\.svg$/);
  const svgText = svgFile.bytes.toString("utf8");
  expect(svgText.startsWith("<?xml")).toBe(true);
  expect(svgText).toContain('xmlns="http://www.w3.org/2000/svg"');
  expect(svgText).toContain("DFW");
  fs.writeFileSync(path.join(ARTIFACTS, "55-chart-bar-download.svg"), svgText);

  // the API panel shows the request behind the chart, and it returns the chart's numbers
  await page.getByRole("button", { name: /^API/ }).click();
  await expect(page.getByRole("heading", { name: "POST body (to /api/action/datastore_aggregate)" })).toBeVisible();
  await page.getByRole("button", { name: "Copy POST body" }).click();
  const body = JSON.parse(await page.evaluate(() => navigator.clipboard.readText()));
  expect(body).toEqual({ resource_id: "flights-20k", group_by: "origin", metric: "count", limit: 30 });
  const answer = await (await request.post("/api/action/datastore_aggregate", { data: body })).json();
  expect(answer.result.groups[0]).toMatchObject({ key: ["DFW"], count: 1103 });
  await page.getByRole("button", { name: "Copy GET URL" }).click();
  const url = await page.evaluate(() => navigator.clipboard.readText());
  expect(new URL(url).pathname).toBe("/api/action/datastore_aggregate");
  expect((await (await request.get(url)).json()).result.groups).toEqual(answer.result.groups);
  await shot(page, "51-chart-bar-api-panel");

  // the table's panel is back with the Table tab
  await page.getByRole("tab", { name: "Table" }).click();
  await expect(page.getByRole("heading", { name: "POST body (to /api/action/datastore_search)" })).toBeVisible();
});

test("a line chart of flights per month, restored from its URL", async ({ page }) => {
  await page.goto("/?resource_id=flights-20k&view=chart");
  await page.getByLabel("Chart type").selectOption("line");
  await expect(page.getByLabel("Group by")).toHaveValue("date");
  await page.getByLabel("Period").selectOption("month");
  await expect(page).toHaveURL(/chart=line/);
  await expect(page).toHaveURL(/x=date/);
  await expect(page).toHaveURL(/period=month/);

  const caption = "US flights (20,000): rows per month of Departure, count, 20,000 rows";
  await expect(figure(page).locator("figcaption")).toContainText(caption);
  const table = await numbersTable(page);
  await expect(table.locator("thead th")).toHaveText(["Month of Departure", "Rows"]);
  await expect(table.locator("tbody tr")).toHaveText([/2001-01\s*6,937/, /2001-02\s*5,964/, /2001-03\s*7,099/]);
  await expect(figure(page).locator("svg[role=img] g[aria-label='line'] path")).toHaveCount(1);
  await shot(page, "52-chart-line-month");

  await page.reload();
  await expect(page.getByLabel("Chart type")).toHaveValue("line");
  await expect(page.getByLabel("Period")).toHaveValue("month");
  await expect(figure(page).locator("figcaption")).toContainText(caption);

  const csv = await download(page, "Download CSV");
  expect(csv.bytes.toString("utf8")).toBe("Month of Departure,Rows\r\n2001-01,6937\r\n2001-02,5964\r\n2001-03,7099\r\n");

  await page.getByRole("button", { name: /^API/ }).click();
  await page.getByRole("button", { name: "Copy POST body" }).click();
  const body = JSON.parse(await page.evaluate(() => navigator.clipboard.readText()));
  expect(body).toEqual({ resource_id: "flights-20k", group_by: "date", period: "month", metric: "count", limit: 5000 });
});

test("the chart follows the search and filters; scatter and histogram draw", async ({ page }) => {
  await page.goto('/?resource_id=flights-20k&view=chart&filters={"origin":["SEA","PDX"]}&x=destination');
  const caption = figure(page).locator("figcaption");
  await expect(caption).toContainText(/rows per destination, count, [\d,]+ rows/);

  await page.getByLabel("Measure").selectOption("avg");
  await expect(page.getByLabel("Value")).toBeVisible();
  await page.getByLabel("Value").selectOption("delay");
  await expect(caption).toContainText("Delay (min) per destination, average");
  await expect(page).toHaveURL(/agg=avg/);

  await page.getByLabel("Chart type").selectOption("scatter");
  await page.getByLabel("Field").selectOption("distance");
  await page.getByLabel("Value").selectOption("delay");
  await expect(caption).toContainText("Delay (min) against Distance (miles)");
  await expect(figure(page).locator("svg[role=img] g[aria-label='dot'] circle").first()).toBeVisible();
  await shot(page, "53-chart-scatter");

  await page.getByLabel("Chart type").selectOption("histogram");
  await page.getByLabel("Field").selectOption("delay");
  await expect(caption).toContainText("distribution of Delay (min)");
  await expect(figure(page).locator("svg[role=img] g[aria-label='rect'] rect").first()).toBeVisible();
});

test("the scatter plot reads about 2,000 rows spread through the whole match and says how many of how many", async ({ page }) => {
  await page.goto("/?resource_id=flights-20k&view=chart&chart=scatter&x=distance&y=delay");
  const caption = figure(page).locator("figcaption");
  await expect(caption).toContainText(/[\d,]+ of [\d,]+ matching rows, spread evenly/);
  const [, shown, total] = /([\d,]+) of ([\d,]+) matching rows/.exec((await caption.textContent()) ?? "")!.map((n) => Number(n.replace(/,/g, "")));
  expect(shown).toBeGreaterThan(1900);
  expect(shown).toBeLessThanOrEqual(2000);
  expect(total).toBeGreaterThan(19_000);
});

test("defaults: a bar chart of a field with a few values; a click on a dot opens its row", async ({ page }) => {
  // movies: Title has 3,000 values, MPAA Rating 7
  await page.goto("/?resource_id=movies&view=chart");
  await expect(page.getByLabel("Group by")).toHaveValue("MPAA Rating");
  await expect(figure(page).locator("figcaption")).toContainText("Movies: rows per MPAA Rating, count, 3,201 rows");
  expect(new URL(page.url()).searchParams.has("x")).toBe(false);

  await page.goto("/?resource_id=penguins&view=chart&chart=scatter");
  await expect(page.getByLabel("Field")).toHaveValue("Beak Length (mm)");
  await expect(page.getByLabel("Value")).toHaveValue("Beak Depth (mm)");
  const dot = figure(page).locator("svg[role=img] g[aria-label='dot'] circle").first();
  // the mouse reaches only what is on screen (the toolbar's rows push the plot down)
  await dot.scrollIntoViewIfNeeded();
  const box = (await dot.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(page).toHaveURL(/record=\d+/);
  await expect(page.getByRole("dialog")).toBeVisible();
});

test("counts from a sample say so", async ({ page }) => {
  // a bench-sized table is not in the sample data: answer as the server does past its budget
  await page.route("**/api/action/datastore_aggregate", async (route) => {
    const body = route.request().postDataJSON();
    await route.fulfill({
      json: {
        success: true,
        result: {
          resource_id: body.resource_id, group_by: ["origin"], period: null, bin: null, metric: "count", field: null,
          total: 3_000_000, rows: 100_000, partial: true,
          groups: [{ key: ["DFW"], count: 5_512, value: 5_512, _id: 73 }, { key: [null], count: 12, value: 12, _id: 9 }],
          others: { groups: 218, count: 90_000 },
        },
      },
    });
  });
  await page.goto("/?resource_id=flights-20k&view=chart&x=origin");
  const caption = figure(page).locator("figcaption");
  await expect(caption).toContainText("rows per origin, count, a sample of 100,000 rows");
  await expect(caption).toContainText("Counted in a sample of 100,000 of about 3,000,000 rows.");
  await expect(caption).toContainText("The top 2 values are shown, and 218 more values (90,000 rows).");
  const table = await numbersTable(page);
  await expect(table.locator("tbody tr")).toHaveText([/DFW\s*5,512/, /\(empty\)\s*12/]);
});

for (const colorScheme of ["light", "dark"] as const) {
  test(`axe: the chart tab in ${colorScheme} mode`, async ({ page }) => {
    await page.emulateMedia({ colorScheme });
    await page.goto("/?resource_id=flights-20k&view=chart&chart=line&x=date&period=week");
    await expect(figure(page).locator("svg[role=img]")).toBeVisible();
    await numbersTable(page);
    const results = await axe(page).analyze();
    const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
    await shot(page, `54-chart-line-${colorScheme}`);
  });
}
