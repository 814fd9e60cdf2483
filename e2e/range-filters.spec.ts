// Ranges, exclude and empty in the filter bar: From/To with a histogram, "is not", "is empty"
// and "is not empty"; the chips read as sentences, the URL holds the API's filters JSON, a reload
// restores them, and "why no rows" counts what each one removes.
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./helpers/test";
import { apiSearch, columnTexts, rangeStatus, shot, waitForRows } from "./helpers/explorer";
import { axe } from "./helpers/axe";

function filtersInUrl(page: Page): unknown {
  const raw = new URL(page.url()).searchParams.get("filters");
  return raw === null ? null : JSON.parse(raw);
}

async function total(request: APIRequestContext, resource: string, filters: object): Promise<number> {
  return (await apiSearch(request, { resource_id: resource, filters, limit: 0 })).total;
}

const count = (n: number) => n.toLocaleString("en-US");

async function expectNoSeriousViolations(page: Page, state: string) {
  const results = await axe(page).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`), `axe in ${state}`).toEqual([]);
}

/** Add filter → field → condition; returns the dialog. */
async function openFilter(page: Page, field: string, condition: string) {
  await page.getByRole("button", { name: "Add filter" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: field, exact: true }).click();
  await dialog.getByRole("radio", { name: condition, exact: true }).check();
  return dialog;
}

async function apply(page: Page) {
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Apply filter" }).click();
  await expect(dialog).toBeHidden();
}

test("a range chip from From and To: its words, the URL, the rows, reload, the API panel", async ({ page, request }) => {
  test.slow();
  await page.goto("/?resource_id=flights-20k");
  await waitForRows(page);
  await expect(rangeStatus(page)).toHaveText("1–100 of 20,000");

  const dialog = await openFilter(page, "delay", "between");
  await dialog.getByLabel("From").fill("60");
  await dialog.getByLabel("To").fill("120");
  await shot(page, "20-range-editor");
  await apply(page);

  const chip = page.getByRole("button", { name: "delay: 60 to 120", exact: true });
  await expect(chip).toBeVisible();
  expect(filtersInUrl(page)).toEqual({ delay: { gte: 60, lte: 120 } });
  const expected = await total(request, "flights-20k", { delay: { gte: 60, lte: 120 } });
  expect(expected).toBeGreaterThan(0);
  expect(expected).toBeLessThan(20_000);
  await expect(rangeStatus(page)).toHaveText(`1–100 of ${count(expected)}`);
  await waitForRows(page);
  const delays = (await columnTexts(page, "delay")).map(Number);
  expect(delays.length).toBeGreaterThan(0);
  for (const d of delays) expect(d >= 60 && d <= 120, `delay ${d} in 60..120`).toBe(true);
  await shot(page, "21-range-chip");

  // reload: the same chip from the URL
  await page.reload();
  await waitForRows(page);
  await expect(chip).toBeVisible();
  await expect(rangeStatus(page)).toHaveText(`1–100 of ${count(expected)}`);

  // the API panel's GET URL returns the same rows; the POST body and curl carry the range
  const shown = await columnTexts(page, "_id");
  await page.getByRole("button", { name: /^API/ }).click();
  await page.getByRole("button", { name: "Copy GET URL" }).click();
  const getUrl = await page.evaluate(() => navigator.clipboard.readText());
  expect(getUrl).toContain("filters=%7B%22delay%22%3A%7B%22gte%22%3A60%2C%22lte%22%3A120%7D%7D");
  const viaGet = await (await request.get(getUrl)).json();
  // (the table renders only the rows on screen)
  expect(viaGet.result.records.slice(0, shown.length).map((r: { _id: number }) => String(r._id))).toEqual(shown);
  await page.getByRole("button", { name: "Copy POST body" }).click();
  expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText())).filters).toEqual({ delay: { gte: 60, lte: 120 } });
  await expect(page.locator("#api-body")).toContainText(`"filters":{"delay":{"gte":60,"lte":120}}`);
  await page.getByRole("button", { name: /^API/ }).click();

  // the chip opens its editor as it was; From alone reads "from 60"
  await chip.click();
  await expect(page.getByRole("dialog").getByRole("radio", { name: "between", exact: true })).toBeChecked();
  await expect(page.getByRole("dialog").getByLabel("From")).toHaveValue("60");
  await expect(page.getByRole("dialog").getByLabel("To")).toHaveValue("120");
  await page.getByRole("dialog").getByLabel("To").fill("");
  await apply(page);
  await expect(page.getByRole("button", { name: "delay: from 60", exact: true })).toBeVisible();
  expect(filtersInUrl(page)).toEqual({ delay: { gte: 60 } });

  // To alone reads "up to 120"
  await page.getByRole("button", { name: "delay: from 60", exact: true }).click();
  await page.getByRole("dialog").getByLabel("From").fill("");
  await page.getByRole("dialog").getByLabel("To").fill("120");
  await apply(page);
  await expect(page.getByRole("button", { name: "delay: up to 120", exact: true })).toBeVisible();
  await expect(rangeStatus(page)).toHaveText(`1–100 of ${count(await total(request, "flights-20k", { delay: { lte: 120 } }))}`);

  // removable
  await page.getByRole("button", { name: "Remove filter delay: up to 120" }).click();
  await expect(rangeStatus(page)).toHaveText("1–100 of 20,000");
  expect(filtersInUrl(page)).toBeNull();
});

test("the histogram: a bar fills From and To, a drag across bars fills several", async ({ page, request }) => {
  await page.goto("/?resource_id=flights-20k&filters=" + encodeURIComponent('{"origin":"SEA"}'));
  await waitForRows(page);
  // the histogram counts under the other chips (origin SEA), not the range being edited
  const res = await request.post("/api/action/datastore_histogram", {
    data: { resource_id: "flights-20k", field: "delay", bins: 20, filters: { origin: "SEA" } },
  });
  const histogram = (await res.json()).result as { bins: { from: number; to: number; count: number }[] };
  const bins = histogram.bins;
  expect(bins.length).toBeGreaterThan(4);

  const dialog = await openFilter(page, "delay", "between");
  // integer bars stop one before the next bar's start, so From/To hold exactly the bar's rows
  const barName = (i: number) => `${bins[i].from} to ${i === bins.length - 1 ? bins[i].to : bins[i].to - 1}: ${count(bins[i].count)} row${bins[i].count === 1 ? "" : "s"}`;
  const bar = (i: number) => dialog.getByRole("button", { name: barName(i), exact: true });
  await expect(bar(1)).toBeVisible();
  await expect(dialog.getByText("sampled")).toHaveCount(0);
  await shot(page, "22-histogram");

  await expectNoSeriousViolations(page, "range editor");
  await page.emulateMedia({ colorScheme: "dark" });
  await expectNoSeriousViolations(page, "range editor, dark");
  await shot(page, "22-histogram-dark");
  await page.emulateMedia({ colorScheme: "light" });

  await bar(1).click();
  await expect(dialog.getByLabel("From")).toHaveValue(String(bins[1].from));
  await expect(dialog.getByLabel("To")).toHaveValue(String(bins[1].to - 1));

  // from the keyboard: arrows move between bars, Enter picks one, Shift+arrow widens the pick
  await page.keyboard.press("ArrowRight");
  await expect(bar(2)).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog.getByLabel("From")).toHaveValue(String(bins[2].from));
  await page.keyboard.press("Shift+ArrowRight");
  await expect(bar(3)).toBeFocused();
  await expect(dialog.getByLabel("From")).toHaveValue(String(bins[2].from));
  await expect(dialog.getByLabel("To")).toHaveValue(String(bins[3].to - 1));

  // drag from the first bar to the third
  const a = (await bar(0).boundingBox())!;
  const c = (await bar(2).boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height - 2);
  await page.mouse.down();
  await page.mouse.move(c.x + c.width / 2, c.y + c.height - 2, { steps: 6 });
  await page.mouse.up();
  await expect(dialog.getByLabel("From")).toHaveValue(String(bins[0].from));
  await expect(dialog.getByLabel("To")).toHaveValue(String(bins[2].to - 1));

  await apply(page);
  const range = { gte: bins[0].from, lte: bins[2].to - 1 };
  await expect(page.getByRole("button", { name: `delay: ${range.gte} to ${range.lte}`, exact: true })).toBeVisible();
  expect(filtersInUrl(page)).toEqual({ origin: "SEA", delay: range });
  const expected = await total(request, "flights-20k", { origin: "SEA", delay: range });
  expect(expected).toBe(bins[0].count + bins[1].count + bins[2].count);
  await expect(rangeStatus(page)).toContainText(`of ${count(expected)}`);
});

test("dates and timestamps: date inputs; a timestamp's To keeps its whole day", async ({ page, request }) => {
  await page.goto("/?resource_id=seattle-weather");
  await waitForRows(page);
  await page.getByRole("button", { name: "Add filter" }).click();
  let dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "date", exact: true }).click();
  // a date opens on its range
  await expect(dialog.getByRole("radio", { name: "between", exact: true })).toBeChecked();
  await expect(dialog.getByLabel("From")).toHaveAttribute("type", "date");
  await dialog.getByLabel("From").fill("2013-01-01");
  await dialog.getByLabel("To").fill("2013-01-31");
  await apply(page);
  await expect(page.getByRole("button", { name: "date: 2013-01-01 to 2013-01-31", exact: true })).toBeVisible();
  await expect(rangeStatus(page)).toHaveText("1–31 of 31");

  await page.goto("/?resource_id=flights-20k");
  await waitForRows(page);
  await page.getByRole("button", { name: "Add filter" }).click();
  dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "date", exact: true }).click();
  await expect(dialog.getByLabel("From")).toHaveAttribute("type", "date");
  await dialog.getByLabel("From").fill("2001-03-01");
  await apply(page);
  await expect(page.getByRole("button", { name: "date: from 2001-03-01", exact: true })).toBeVisible();
  expect(filtersInUrl(page)).toEqual({ date: { gte: "2001-03-01" } });
  const from = await total(request, "flights-20k", { date: { gte: "2001-03-01" } });
  await expect(rangeStatus(page)).toContainText(`of ${count(from)}`);

  await page.getByRole("button", { name: "date: from 2001-03-01", exact: true }).click();
  dialog = page.getByRole("dialog");
  await dialog.getByLabel("To").fill("2001-03-31");
  await apply(page);
  await expect(page.getByRole("button", { name: "date: 2001-03-01 to 2001-03-31", exact: true })).toBeVisible();
  expect(filtersInUrl(page)).toEqual({ date: { gte: "2001-03-01", lte: "2001-03-31T23:59:59" } });
  // The whole of March 31 is in: the same rows as "before April 1".
  const march = await total(request, "flights-20k", { date: { gte: "2001-03-01", lt: "2001-04-01" } });
  await expect(rangeStatus(page)).toContainText(`of ${count(march)}`);
});

test("exclude: is not one of the chosen values", async ({ page, request }) => {
  await page.goto("/?resource_id=flights-20k");
  await waitForRows(page);
  const dialog = await openFilter(page, "origin", "is not");
  await dialog.getByRole("checkbox", { name: /^SEA\b/ }).check();
  // PDX is not among the 20 most common origins: typed, and added to the list (Enter would apply)
  await dialog.getByLabel("Value").fill("PDX");
  await dialog.getByRole("button", { name: "Add value" }).click();
  await expect(dialog.getByRole("checkbox", { name: /^PDX\b/ })).toBeChecked();
  await shot(page, "23-exclude-editor");
  await apply(page);
  await expect(page.getByRole("button", { name: "origin: not SEA or PDX", exact: true })).toBeVisible();
  expect(filtersInUrl(page)).toEqual({ origin: { x_not_in: ["SEA", "PDX"] } });
  const expected = await total(request, "flights-20k", { origin: { x_not_in: ["SEA", "PDX"] } });
  await expect(rangeStatus(page)).toHaveText(`1–100 of ${count(expected)}`);
  await waitForRows(page);
  for (const o of await columnTexts(page, "origin")) expect(["SEA", "PDX"]).not.toContain(o);

  await page.reload();
  await waitForRows(page);
  const chip = page.getByRole("button", { name: "origin: not SEA or PDX", exact: true });
  await expect(chip).toBeVisible();
  // "is" and "is not" share the chosen values
  await chip.click();
  await expect(page.getByRole("dialog").getByRole("radio", { name: "is not", exact: true })).toBeChecked();
  await page.getByRole("dialog").getByRole("radio", { name: "is", exact: true }).check();
  await expect(page.getByRole("dialog").getByRole("checkbox", { name: /^SEA\b/ })).toBeChecked();
  await apply(page);
  await expect(page.getByRole("button", { name: "origin: SEA or PDX", exact: true })).toBeVisible();
});

test("is empty and is not empty", async ({ page, request }) => {
  await page.goto("/?resource_id=penguins");
  await waitForRows(page);
  const empty = await total(request, "penguins", { Sex: { x_empty: true } });
  expect(empty).toBeGreaterThan(0);
  await openFilter(page, "Sex", "is empty");
  await apply(page);
  await expect(page.getByRole("button", { name: "Sex: is empty", exact: true })).toBeVisible();
  expect(filtersInUrl(page)).toEqual({ Sex: { x_empty: true } });
  await expect(rangeStatus(page)).toHaveText(`1–${empty} of ${empty}`);
  await waitForRows(page);
  for (const s of await columnTexts(page, "Sex")) expect(["", "null", "empty"]).toContain(s.trim());
  await shot(page, "24-empty-chip");

  await page.getByRole("button", { name: "Sex: is empty", exact: true }).click();
  await page.getByRole("dialog").getByRole("radio", { name: "is not empty", exact: true }).check();
  await apply(page);
  await expect(page.getByRole("button", { name: "Sex: is not empty", exact: true })).toBeVisible();
  expect(filtersInUrl(page)).toEqual({ Sex: { x_empty: false } });
  await expect(rangeStatus(page)).toHaveText(`1–100 of ${count(344 - empty)}`);
  await page.reload();
  await expect(page.getByRole("button", { name: "Sex: is not empty", exact: true })).toBeVisible();
});

test("why no rows counts what each range, exclude and empty chip removes", async ({ page, request }) => {
  const filters = { delay: { gte: 100000 }, origin: { x_not_in: ["SEA"] }, destination: { x_empty: false } };
  await page.goto(`/?resource_id=flights-20k&filters=${encodeURIComponent(JSON.stringify(filters))}`);
  await expect(page.getByText("No records match")).toBeVisible();
  const withoutDelay = await total(request, "flights-20k", { origin: { x_not_in: ["SEA"] }, destination: { x_empty: false } });
  await expect(page.getByText(`Without the filter “delay: from 100000”: ${count(withoutDelay)} records`)).toBeVisible();
  await expect(page.getByText("Without the filter “origin: not SEA”: 0 records")).toBeVisible();
  await expect(page.getByText("Without the filter “destination: is not empty”: 0 records")).toBeVisible();
  await shot(page, "25-empty-result-ranges");
  await page.getByRole("button", { name: "Remove filter", exact: true }).first().click();
  await expect(rangeStatus(page)).toHaveText(`1–100 of ${count(withoutDelay)}`);
});

test("a URL with an OR group shows one chip of its JSON, which can be removed", async ({ page, request }) => {
  const or = [{ origin: "SEA" }, { delay: { gte: 300 } }];
  await page.goto(`/?resource_id=flights-20k&filters=${encodeURIComponent(JSON.stringify(or))}`);
  await waitForRows(page);
  const expected = (await apiSearch(request, { resource_id: "flights-20k", filters: or, limit: 0 })).total;
  await expect(rangeStatus(page)).toHaveText(`1–100 of ${count(expected)}`);
  const chip = page.getByRole("button", { name: JSON.stringify({ $or: or }), exact: true });
  await expect(chip).toBeVisible();
  await chip.click();
  const dialog = page.getByRole("dialog", { name: "Combined filter" });
  await expect(dialog.locator("pre")).toContainText('"$or"');
  await dialog.getByRole("button", { name: "Remove filter" }).click();
  await expect(chip).toBeHidden();
  await expect(rangeStatus(page)).toHaveText("1–100 of 20,000");
});

test("a field condition the editor can't show is kept, shown as JSON, and replaced by editing it", async ({ page, request }) => {
  await page.goto(`/?resource_id=flights-20k&filters=${encodeURIComponent('{"delay":{"gt":300}}')}`);
  await waitForRows(page);
  await expect(rangeStatus(page)).toHaveText(`1–${count(await total(request, "flights-20k", { delay: { gt: 300 } }))} of ${count(await total(request, "flights-20k", { delay: { gt: 300 } }))}`);
  await page.getByRole("button", { name: 'delay: {"gt":300}', exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Filter: delay" });
  await expect(dialog.getByText(/^Now: \{"gt":300\}/)).toBeVisible();
  await dialog.getByRole("radio", { name: "between", exact: true }).check();
  await dialog.getByLabel("From").fill("301");
  await apply(page);
  await expect(page.getByRole("button", { name: "delay: from 301", exact: true })).toBeVisible();
  expect(filtersInUrl(page)).toEqual({ delay: { gte: 301 } });
});
