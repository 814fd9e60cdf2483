// The main journey: pick a resource, search, add a two-value chip, change the limit, sort,
// page; then reload and go back/forward and see exactly the same view.
import { expect, test } from "./helpers/test";
import {
  ADMIN_TOKEN,
  addFilter,
  apiSearch,
  columnTexts,
  dataRows,
  pickResource,
  rangeStatus,
  recordsTable,
  searchFor,
  shot,
  waitForRows,
} from "./helpers/explorer";

test("browse, search, filter, sort, page, and restore the view from the URL", async ({ page, request }) => {
  test.slow();
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Pick a resource to explore" })).toBeVisible();
  // The landing lists a page of resources by name; other journeys' resources may come first.
  await page.getByLabel("Find a resource").fill("flights");
  await expect(page.getByRole("button", { name: /US flights/ })).toBeVisible();
  await shot(page, "01-landing");

  await pickResource(page, "flights", /US flights/);
  await expect(page).toHaveURL(/resource_id=/);
  await waitForRows(page);
  // headers show the data dictionary's labels where there are some
  await expect(page.getByRole("columnheader", { name: "origin", exact: true })).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "Delay (min)", exact: true })).toBeVisible();
  await expect(rangeStatus(page)).toHaveText("1–100 of 20,000");
  await shot(page, "02-resource");

  // search: the last word is matched as a prefix while typing
  await searchFor(page, "SE");
  await expect(page).toHaveURL(/q=SE/);
  const prefix = await apiSearch(request, { resource_id: "flights-20k", q: "SE:*", plain: false, limit: 0 });
  await expect(page.getByText(`${prefix.total.toLocaleString("en-US")} of 20,000 records match`)).toBeVisible();
  await waitForRows(page);
  const origins = await columnTexts(page, "origin");
  const destinations = await columnTexts(page, "destination");
  expect(origins.some((o, i) => /^SE/.test(o) || /^SE/.test(destinations[i]))).toBe(true);

  await searchFor(page, "");
  await expect(page).not.toHaveURL(/q=/);

  // a two-value chip
  await addFilter(page, "origin", ["SEA", "PDX"]);
  await expect(page.getByRole("button", { name: "origin: SEA or PDX", exact: true })).toBeVisible();
  await expect(page).toHaveURL(/filters=/);
  const expected = await apiSearch(request, { resource_id: "flights-20k", filters: { origin: ["SEA", "PDX"] }, limit: 0 });
  await expect(rangeStatus(page)).toContainText(`of ${expected.total.toLocaleString("en-US")}`);
  for (const o of await columnTexts(page, "origin")) expect(["SEA", "PDX"]).toContain(o);

  // limit
  await page.getByLabel("Limit").selectOption("25");
  await expect(rangeStatus(page)).toHaveText(`1–25 of ${expected.total.toLocaleString("en-US")}`);
  await expect(dataRows(page)).toHaveCount(25);

  // sort by delay, descending (second click)
  await page.getByRole("columnheader", { name: "Delay (min)" }).click();
  await expect(page.getByRole("columnheader", { name: "Delay (min)" })).toHaveAttribute("aria-sort", "ascending");
  await page.getByRole("columnheader", { name: "Delay (min)" }).click();
  await expect(page.getByRole("columnheader", { name: "Delay (min)" })).toHaveAttribute("aria-sort", "descending");
  await expect(page).toHaveURL(/sort=delay\+desc/);
  await waitForRows(page);
  const delays = (await columnTexts(page, "delay")).map(Number);
  expect(delays).toEqual([...delays].sort((a, b) => b - a));

  // page
  await page.getByRole("button", { name: "Next", exact: true }).click();
  await expect(rangeStatus(page)).toHaveText(`26–50 of ${expected.total.toLocaleString("en-US")}`);
  await waitForRows(page);
  const page2 = await columnTexts(page, "_id");
  const api = await apiSearch(request, {
    resource_id: "flights-20k",
    filters: { origin: ["SEA", "PDX"] },
    sort: "delay desc",
    limit: 25,
    offset: 25,
  });
  expect(page2).toEqual(api.records.map((r) => String(r._id)));
  await shot(page, "03-filtered-sorted-page2");

  // reload: the same view
  const url = page.url();
  await page.reload();
  await waitForRows(page);
  expect(page.url()).toBe(url);
  await expect(page.getByRole("button", { name: "origin: SEA or PDX", exact: true })).toBeVisible();
  await expect(page.getByLabel("Limit")).toHaveValue("25");
  await expect(page.getByRole("columnheader", { name: "Delay (min)" })).toHaveAttribute("aria-sort", "descending");
  await expect(rangeStatus(page)).toHaveText(`26–50 of ${expected.total.toLocaleString("en-US")}`);
  expect(await columnTexts(page, "_id")).toEqual(page2);

  // back and forward (history entries made before the reload belong to another document, so
  // wait for each step to land before taking the next)
  await page.goBack();
  await expect(page).not.toHaveURL(/offset=/);
  await expect(rangeStatus(page)).toHaveText(`1–25 of ${expected.total.toLocaleString("en-US")}`);
  await waitForRows(page);
  await page.goBack();
  await expect(page).not.toHaveURL(/desc/);
  await expect(page.getByRole("columnheader", { name: "Delay (min)" })).toHaveAttribute("aria-sort", "ascending");
  await waitForRows(page);
  await page.goForward();
  await expect(page.getByRole("columnheader", { name: "Delay (min)" })).toHaveAttribute("aria-sort", "descending");
  await waitForRows(page);
  await page.goForward();
  await expect(rangeStatus(page)).toHaveText(`26–50 of ${expected.total.toLocaleString("en-US")}`);
  await waitForRows(page);
  expect(await columnTexts(page, "_id")).toEqual(page2);

  // edit the chip: drop PDX
  await page.getByRole("button", { name: "origin: SEA or PDX", exact: true }).click();
  await page.getByRole("dialog").getByRole("checkbox", { name: /^PDX/ }).uncheck();
  await page.getByRole("dialog").getByRole("button", { name: "Apply filter" }).click();
  await expect(page.getByRole("button", { name: "origin: SEA", exact: true })).toBeVisible();
  await waitForRows(page);
  for (const o of await columnTexts(page, "origin")) expect(o).toBe("SEA");

  // remove it
  await page.getByRole("button", { name: "Remove filter origin: SEA" }).click();
  await expect(page.getByRole("button", { name: /^origin:/ })).toHaveCount(0);
  await expect(rangeStatus(page)).toHaveText("1–25 of 20,000");
  await expect(recordsTable(page)).toBeVisible();
});

test("values: null differs from empty text, long text and JSON are cut short, a row opens in full", async ({ page, request }) => {
  const long = `A long note ${"that keeps going ".repeat(30)}until the end.`;
  const created = await request.post("/api/action/datastore_create", {
    headers: { Authorization: ADMIN_TOKEN },
    data: {
      resource: { name: `E2E values ${Date.now()}`, description: "Values of every kind, for the explorer's journeys." },
      fields: [
        { id: "name", type: "text" },
        { id: "note", type: "text" },
        { id: "amount", type: "numeric" },
        { id: "data", type: "json" },
      ],
      records: [
        { name: "with null", note: null, amount: 1.5, data: { tags: ["a", "b"], nested: { deep: true } } },
        { name: "with empty", note: "", amount: null, data: null },
        { name: "long", note: long, amount: 12345, data: [1, 2, 3] },
      ],
    },
  });
  expect(created.ok()).toBe(true);
  const id = (await created.json()).result.resource_id as string;

  await page.goto(`/?resource_id=${id}`);
  await waitForRows(page);
  const row = (name: string) => dataRows(page).filter({ has: page.getByRole("cell", { name, exact: true }) });
  const cell = (name: string, column: number) => row(name).locator("td").nth(column);

  // note column (index 2): null is marked, empty text is blank
  await expect(cell("with null", 2)).toHaveText("null");
  await expect(cell("with null", 2).locator("[title='No value (null)']")).toBeVisible();
  await expect(cell("with empty", 2).locator("[title='No value (null)']")).toHaveCount(0);
  // (only a screen-reader word: nothing visible)
  await expect(cell("with empty", 2).locator(".sr-only")).toHaveText("empty");
  await expect(cell("with empty", 2).locator(":not(.sr-only)")).toHaveCount(0);
  // numbers right-aligned, in the reader's locale (the stored value in the tooltip)
  await expect(cell("long", 3)).toHaveCSS("text-align", "right");
  await expect(cell("long", 3)).toHaveText("12,345");
  await expect(cell("long", 3).locator("[title='12345']")).toBeVisible();
  // JSON compact, long text cut
  await expect(cell("with null", 4)).toHaveText('{"tags":["a","b"],"nested":{"deep":true}}');
  const shown = await cell("long", 2).innerText();
  expect(shown.length).toBeLessThan(long.length);
  expect(shown.endsWith("…")).toBe(true);
  await shot(page, "04-values");

  // the full value on demand
  await row("long").click();
  const detail = page.getByRole("dialog", { name: /^Record \d+$/ });
  await expect(detail).toBeVisible();
  await expect(detail.getByText(long)).toBeVisible();
  for (const field of ["name", "note", "amount", "data"]) {
    await expect(detail.getByRole("term").filter({ hasText: field })).toBeVisible();
  }
  await shot(page, "04-record-detail");
  await page.keyboard.press("Escape");
  await expect(detail).toBeHidden();

  await request.post("/api/action/datastore_delete", { headers: { Authorization: ADMIN_TOKEN }, data: { resource_id: id } });
});

test("an empty result says which chip or search term to remove", async ({ page }) => {
  await page.goto('/?resource_id=flights-20k&filters={"origin":"SEA"}&q=zzqqxx');
  await expect(page.getByText("No records match")).toBeVisible();
  await expect(page.getByText(/Without the search “zzqqxx”: [1-9][\d,]* records/)).toBeVisible();
  await expect(page.getByText(/Without the filter “origin: SEA”: 0 records/)).toBeVisible();
  await shot(page, "05-empty-result");
  await page.getByRole("button", { name: "Clear search" }).click();
  await waitForRows(page);
  await expect(page.getByLabel("Search")).toHaveValue("");
});

test("show and hide columns: the view's fields", async ({ page, request }) => {
  await page.goto("/?resource_id=flights-20k&limit=10");
  await waitForRows(page);
  await page.getByRole("button", { name: "Columns" }).click();
  const dialog = page.getByRole("dialog", { name: "Columns" });
  await expect(dialog.getByRole("checkbox", { name: /_id/ })).toBeDisabled();
  // each column by its header (the label), with its field id
  await dialog.getByRole("checkbox", { name: /^Distance \(miles\) distance\b/ }).uncheck();
  await dialog.getByRole("checkbox", { name: /^Departure date\b/ }).uncheck();
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(page).toHaveURL(/fields=_id%2Cdelay%2Corigin%2Cdestination/);
  await expect(page.getByRole("columnheader", { name: "Distance (miles)" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Columns (2 hidden)" })).toBeVisible();
  await waitForRows(page);
  const api = await apiSearch(request, { resource_id: "flights-20k", fields: ["_id", "delay", "origin", "destination"], limit: 10 });
  expect(Object.keys(api.records[0])).toEqual(["_id", "delay", "origin", "destination"]);
  expect(await recordsTable(page).locator("thead th").count()).toBe(4);

  await page.reload();
  await waitForRows(page);
  await expect(page.getByRole("columnheader", { name: "Departure" })).toHaveCount(0);
  await expect(page.getByRole("columnheader", { name: "Delay (min)" })).toBeVisible();
  await page.getByRole("button", { name: "Columns (2 hidden)" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Show all" }).click();
  await expect(page).not.toHaveURL(/fields=/);
  await page.keyboard.press("Escape");
  await expect(page.getByRole("columnheader", { name: "Distance (miles)" })).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "Departure" })).toBeVisible();
});

test("typed filter values: applied as typed, and a value the field can't hold is explained", async ({ page }) => {
  await page.goto("/?resource_id=flights-20k&limit=10");
  await waitForRows(page);
  await page.getByRole("button", { name: "Add filter" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "delay", exact: true }).click();
  await dialog.getByLabel("Value").fill("late");
  await dialog.getByLabel("Value").press("Enter");
  await expect(dialog.getByRole("alert")).toContainText("not a whole number");
  await dialog.getByLabel("Value").fill("0");
  await dialog.getByRole("button", { name: "Apply filter" }).click();
  await expect(page.getByRole("button", { name: "delay: 0", exact: true })).toBeVisible();
  await expect(page).toHaveURL(/filters=%7B%22delay%22%3A0%7D/);
  await waitForRows(page);
  for (const d of await columnTexts(page, "delay")) expect(d).toBe("0");
});
