// The Summary tab: every field of the result from one datastore_summary call. Bars of common
// values and histogram bins add chips; the URL keeps the tab and the filters, a reload shows the
// same; a summary read from a sample says so; bars work from the keyboard.
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./helpers/test";
import { apiSearch, shot } from "./helpers/explorer";

function filtersInUrl(page: Page): unknown {
  const raw = new URL(page.url()).searchParams.get("filters");
  return raw === null ? null : JSON.parse(raw);
}

async function total(request: APIRequestContext, resource: string, filters: object): Promise<number> {
  return (await apiSearch(request, { resource_id: resource, filters, limit: 0 })).total;
}

const field = (page: Page, name: string) => page.getByRole("region", { name, exact: true });
const summary = (page: Page) => page.getByRole("region", { name: "Summary" });

async function settled(page: Page) {
  await expect(summary(page)).toHaveAttribute("aria-busy", "false");
}

test("penguins: bars of Species; a bar adds a chip, kept in the URL with the tab; reload shows the same", async ({ page, request }) => {
  await page.goto("/?resource_id=penguins&view=summary");
  await expect(page.getByRole("tab", { name: "Summary" })).toHaveAttribute("aria-selected", "true");
  await expect(summary(page)).toContainText("344 rows, 7 fields.");

  const species = field(page, "Species");
  await expect(species.getByRole("heading", { name: "Species" })).toBeVisible();
  await expect(species).toContainText("text");
  await expect(species.getByText("Distinct values")).toBeVisible();
  const bars = species.getByRole("group", { name: "Most common values of Species" }).getByRole("button");
  await expect(bars).toHaveCount(3);
  await expect(bars.nth(0)).toHaveAccessibleName("Adelie: 152 rows, add filter");
  await expect(bars.nth(1)).toHaveAccessibleName("Gentoo: 124 rows, add filter");
  await expect(bars.nth(2)).toHaveAccessibleName("Chinstrap: 68 rows, add filter");

  // numbers: lowest, highest and a histogram; empty rows counted
  const mass = field(page, "Body Mass (g)");
  await expect(mass).toContainText("whole number");
  await expect(mass.getByRole("definition").filter({ hasText: /^2 rows/ })).toBeVisible();
  await expect(mass).toContainText("Lowest2,700");
  await expect(mass).toContainText("Highest6,300");
  await expect(mass.getByRole("group", { name: "Spread of Body Mass (g)" }).getByRole("button").first()).toHaveAccessibleName(
    /^2,600 to 2,799: 1 row, add filter$/,
  );
  await shot(page, "70-summary-penguins");

  await bars.nth(0).click();
  await expect(page.getByRole("button", { name: "Species: Adelie", exact: true })).toBeVisible();
  expect(filtersInUrl(page)).toEqual({ Species: "Adelie" });
  await expect(page).toHaveURL(/view=summary/);
  await expect(summary(page)).toContainText("152 rows match the search and filters");
  await settled(page);
  await expect(bars).toHaveCount(1);
  // the Island bars now count Adelie penguins only
  const islands = field(page, "Island").getByRole("group").getByRole("button");
  const counted = await islands.evaluateAll((els) => els.map((el) => Number(/: (\d+) rows?, add filter/.exec(el.textContent ?? "")?.[1])));
  expect(counted.reduce((a, b) => a + b, 0)).toBe(152);
  await shot(page, "71-summary-penguins-adelie");

  await page.reload();
  await expect(page.getByRole("tab", { name: "Summary" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("button", { name: "Species: Adelie", exact: true })).toBeVisible();
  await expect(summary(page)).toContainText("152 rows match the search and filters");
  await expect(bars).toHaveCount(1);
  await expect(bars.first()).toHaveAccessibleName("Adelie: 152 rows, add filter");
  expect(await total(request, "penguins", { Species: "Adelie" })).toBe(152);
});

test("a histogram bin adds a range chip: numbers, dates by quarter, timestamps by week", async ({ page, request }) => {
  test.slow();
  // whole numbers: a bin of 200 g holds 3400 to 3599
  await page.goto("/?resource_id=penguins&view=summary");
  const mass = field(page, "Body Mass (g)");
  await expect(mass).toContainText("Rows per range of 200");
  await mass.getByRole("button", { name: "3,400 to 3,599: 40 rows, add filter" }).click();
  await expect(page.getByRole("button", { name: "Body Mass (g): 3400 to 3599", exact: true })).toBeVisible();
  expect(filtersInUrl(page)).toEqual({ "Body Mass (g)": { gte: 3400, lte: 3599 } });
  await expect(summary(page)).toContainText("40 rows match the search and filters");
  expect(await total(request, "penguins", { "Body Mass (g)": { gte: 3400, lte: 3599 } })).toBe(40);
  // the focus stays in the field that was picked from (on its heading when its bar is gone)
  await settled(page);
  expect(await mass.evaluate((el) => el.contains(document.activeElement))).toBe(true);

  // dates: the server chose quarters
  await page.goto("/?resource_id=seattle-weather&view=summary");
  const date = field(page, "date");
  await expect(date).toContainText("Rows per quarter");
  await expect(date).toContainText("LowestJan 1, 2012");
  await expect(date).toContainText("HighestDec 31, 2015");
  await shot(page, "72-summary-seattle-weather");
  await date.getByRole("button", { name: "Jan 2012 to Mar 2012: 91 rows, add filter" }).click();
  await expect(page.getByRole("button", { name: "date: 2012-01-01 to 2012-03-31", exact: true })).toBeVisible();
  expect(filtersInUrl(page)).toEqual({ date: { gte: "2012-01-01", lte: "2012-03-31" } });
  await expect(summary(page)).toContainText("91 rows match the search and filters");
  // the quarter is now spread over smaller periods: whichever the server picks, it says so
  await expect(date).toContainText(/Rows per (day|week)/);
  // its bar gone (weeks start on Mondays, not on Jan 1), the field's heading has the focus
  await expect(date.getByRole("heading", { name: "date", exact: true })).toBeFocused();

  // timestamps: flights by week; the chip keeps the whole week, as the range picker writes it
  await page.goto("/?resource_id=flights-20k&view=summary");
  const departure = field(page, "Departure");
  await expect(departure).toContainText("date · date and time");
  await expect(departure).toContainText("Rows per week");
  await departure.getByRole("button", { name: /^week of Jan 1, 2001: [\d,]+ rows, add filter$/ }).click();
  await expect(page.getByRole("button", { name: "date: 2001-01-01 to 2001-01-07", exact: true })).toBeVisible();
  const week = { date: { gte: "2001-01-01", lte: "2001-01-07T23:59:59" } };
  expect(filtersInUrl(page)).toEqual(week);
  const rows = await total(request, "flights-20k", week);
  // exact, or (a cold server past its budget) from a sample, which says so
  await expect(summary(page)).toContainText(
    new RegExp(`${rows.toLocaleString("en-US")} rows match the search and filters|Estimated from a sample of [\\d,]+ of about`),
  );
  await expect(page).toHaveURL(/view=summary/);
});

test("the keyboard: one Tab stop per field's bars, arrows move, Enter adds the chip", async ({ page }) => {
  await page.goto("/?resource_id=penguins&view=summary");
  const bars = field(page, "Species").getByRole("group").getByRole("button");
  await expect(bars).toHaveCount(3);
  await expect(bars.nth(0)).toHaveAttribute("tabindex", "0");
  await expect(bars.nth(1)).toHaveAttribute("tabindex", "-1");
  await bars.nth(0).focus();
  await page.keyboard.press("ArrowDown");
  await expect(bars.nth(1)).toBeFocused();
  await page.keyboard.press("End");
  await expect(bars.nth(2)).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: "Species: Chinstrap", exact: true })).toBeVisible();
  await expect(summary(page)).toContainText("68 rows match the search and filters");
  // the bar stays (the only one left) and keeps the focus
  await expect(bars).toHaveCount(1);
  await expect(bars.first()).toBeFocused();
});

test("a summary read from a sample says so; its counts are scaled to every row, distinct counts are estimates", async ({ page }) => {
  // a bench-sized table is not in the sample data: answer as the server does past its budget
  // (budget_ms): counts scaled from the 10,000 rows read to the 3,012,345 matching
  await page.route("**/api/action/datastore_summary", async (route) => {
    const body = route.request().postDataJSON();
    await route.fulfill({
      json: {
        success: true,
        result: {
          resource_id: body.resource_id,
          total: 3_012_345,
          rows: 10_000,
          partial: true,
          fields: [
            { id: "Species", type: "text", empty: 0, distinct: 3, distinct_estimated: false, top: [{ value: "Adelie", count: 1_325_432 }] },
            { id: "Island", type: "text", empty: 36_148, distinct: 12_345, distinct_estimated: true, top: [{ value: "Dream", count: 1_084_444 }] },
          ],
        },
      },
    });
  });
  await page.goto("/?resource_id=penguins&view=summary");
  await expect(summary(page)).toContainText("Estimated from a sample of 10,000 of about 3,010,000 rows: the counts are scaled to every matching row.");
  const island = field(page, "Island");
  await expect(island.getByRole("definition").filter({ hasText: "about 12,300" })).toBeVisible();
  // the rest of the rows: 3,012,345 − 36,148 empty − 1,084,444 Dream
  await expect(island).toContainText("and about 12,300 other values in 1,891,753 rows");
  await shot(page, "73-summary-sampled");
});

test("an error reads as the other tabs' errors do, with a way forward", async ({ page }) => {
  await page.route("**/api/action/datastore_summary", (route) => route.fulfill({ status: 500, json: { success: false, error: { message: "boom" } } }));
  await page.goto("/?resource_id=penguins&view=summary");
  await expect(page.getByRole("alert")).toBeVisible();
  await expect(page.getByRole("alert").getByRole("button", { name: "Try again" })).toBeVisible();
});

test("a sample that found none of the matching rows does not say that no rows match", async ({ page }) => {
  await page.route("**/api/action/datastore_summary", async (route) => {
    const body = route.request().postDataJSON();
    await route.fulfill({ json: { success: true, result: { resource_id: body.resource_id, total: 0, rows: 0, partial: true, fields: [] } } });
  });
  await page.goto('/?resource_id=penguins&view=summary&filters={"Island":"Dream"}');
  await expect(page.getByRole("status").filter({ hasText: "Too few rows to summarise quickly" })).toBeVisible();
  await expect(page.getByText("No rows match the search and filters.")).toHaveCount(0);
});
