// Accessibility and layout: no serious or critical axe violations in the main states, in light
// and dark mode, at desktop width and at 375px; none at all on each tab, the record view and
// each step of the Add filter dialog.
import type { Page } from "@playwright/test";
import { expect, test } from "./helpers/test";
import { ADMIN_TOKEN, dataRows, shot, waitForRows } from "./helpers/explorer";
import { axe } from "./helpers/axe";

type Scan = { every?: boolean; within?: string };

/** No axe violation in the page as it is now (or in the part `within` selects): of any impact
 *  (`every`), or serious and critical. */
async function expectNoSeriousViolations(page: Page, state: string, { every = false, within }: Scan = {}) {
  const scan = axe(page);
  const results = await (within ? scan.include(within) : scan).analyze();
  const found = every ? results.violations : results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const report = found.map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => n.target.join(" ")).join("\n  ")}`);
  expect(report, `axe violations in ${state}`).toEqual([]);
}

/** No axe violation at all, in both colour schemes of the page (or the part `within`) as it is now. */
async function expectNoViolations(page: Page, state: string, within?: string) {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await expectNoSeriousViolations(page, `${state}, ${colorScheme}`, { every: true, within });
  }
  await page.emulateMedia({ colorScheme: "light" });
}

const DIALOG = 'dialog[open], [role="dialog"]';
const FLIGHTS = '/?resource_id=flights-20k&filters={"origin":["SEA","PDX"]}&limit=25';

/** Waits until nothing on the page is loading: no request in flight, nothing marked busy. */
async function settle(page: Page) {
  await page.waitForLoadState("networkidle");
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await expect(page.getByRole("status").filter({ hasText: /^(Loading|Drawing|Searching)/ })).toHaveCount(0);
}

// Every tab of the explorer on data that suits it, and the record view opened from a link.
const VIEWS = [
  { tab: "Table", url: "/?resource_id=penguins", state: "" },
  { tab: "Summary", url: "/?resource_id=penguins&view=summary", state: "" },
  { tab: "Chart", url: "/?resource_id=flights-20k&view=chart", state: "" },
  { tab: "Chart", url: "/?resource_id=seattle-weather&view=chart&chart=line&x=date&y=temp_max&agg=avg&period=month", state: "line" },
  { tab: "Chart", url: "/?resource_id=penguins&view=chart&chart=scatter&x=Beak%20Length%20(mm)&y=Body%20Mass%20(g)", state: "scatter" },
  { tab: "Chart", url: "/?resource_id=flights-20k&view=chart&chart=histogram&x=delay", state: "histogram" },
  { tab: "Map", url: "/?resource_id=airports&view=map", state: "" },
  { tab: "Map", url: "/?resource_id=zipcodes&view=map", state: "many rows" },
  // a small cross-tab: axe's time grows with the cells (pivot.spec.ts scans a big one)
  { tab: "Pivot", url: "/?resource_id=penguins&view=pivot&rows=Species&columns=Island", state: "" },
] as const;

for (const { tab, url, state } of VIEWS) {
  test(`axe: the ${tab} tab${state ? ` (${state})` : ""}`, async ({ page }) => {
    await page.goto(url);
    await expect(page.getByRole("tab", { name: tab, exact: true })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("tabpanel", { name: tab })).toBeVisible();
    await settle(page);
    await expectNoViolations(page, `${tab} tab ${state}`);
    await shot(page, `17-axe-${tab.toLowerCase()}${state ? `-${state.replace(/ /g, "-")}` : ""}`);
  });
}

test("axe: the record view from a link", async ({ page }) => {
  await page.goto("/?resource_id=penguins&record=5");
  const record = page.getByRole("dialog", { name: "Record 5" });
  await expect(record).toBeVisible();
  await expect(record.getByText("Adelie")).toBeVisible();
  await settle(page);
  await expectNoViolations(page, "record view");
});

test("axe: the Add filter dialog at each step", async ({ page }) => {
  test.slow();
  await page.goto("/?resource_id=flights-20k");
  await waitForRows(page);
  const dialog = page.getByRole("dialog");

  await page.getByRole("button", { name: "Add filter" }).click();
  await expect(dialog.getByLabel("Field name")).toBeFocused();
  await expectNoViolations(page, "field list");
  // From here on only the dialog changes: the page behind it was scanned with it just now.
  await dialog.getByLabel("Field name").fill("de");
  await expect(dialog.getByRole("button", { name: "delay", exact: true })).toBeVisible();
  await expectNoSeriousViolations(page, "field list narrowed", { every: true, within: DIALOG });
  await dialog.getByLabel("Field name").fill("zzz");
  await expect(dialog.getByText("No field’s name contains “zzz”.")).toBeVisible();
  await expectNoSeriousViolations(page, "field list, no match", { every: true, within: DIALOG });

  // values ("is"), then each other condition of a number field
  await dialog.getByLabel("Field name").fill("delay");
  await dialog.getByLabel("Field name").press("Enter");
  await expect(dialog.getByLabel("Value")).toBeFocused();
  await expect(dialog.getByRole("checkbox").first()).toBeVisible();
  await expectNoViolations(page, "values", DIALOG);
  await dialog.getByLabel("Value").fill("late");
  await dialog.getByLabel("Value").press("Enter");
  await expect(dialog.getByRole("alert")).toBeVisible();
  await expectNoSeriousViolations(page, "values, a value the field can't hold", { every: true, within: DIALOG });
  await dialog.getByRole("radio", { name: "between", exact: true }).check();
  await expect(dialog.getByRole("button", { name: /rows?$/ }).first()).toBeVisible();
  await expectNoViolations(page, "range", DIALOG);
  await dialog.getByLabel("From").fill("9");
  await dialog.getByLabel("To").fill("1");
  await dialog.getByRole("button", { name: "Apply filter" }).click();
  await expect(dialog.getByRole("alert")).toContainText("From is after To");
  await expectNoSeriousViolations(page, "range, From after To", { every: true, within: DIALOG });
  await dialog.getByRole("radio", { name: "is empty", exact: true }).check();
  await expectNoSeriousViolations(page, "is empty", { every: true, within: DIALOG });
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  // editing a chip: a condition written by hand, and an OR group
  await page.goto(`/?resource_id=flights-20k&filters=${encodeURIComponent('{"delay":{"gt":300}}')}`);
  await waitForRows(page);
  await page.getByRole("button", { name: 'delay: {"gt":300}', exact: true }).click();
  await expect(dialog.getByText(/^Now:/)).toBeVisible();
  await settle(page);
  await expectNoSeriousViolations(page, "editing a hand-written condition", { every: true, within: DIALOG });
  await page.keyboard.press("Escape");
  const or = [{ origin: "SEA" }, { delay: { gte: 300 } }];
  await page.goto(`/?resource_id=flights-20k&filters=${encodeURIComponent(JSON.stringify(or))}`);
  await waitForRows(page);
  await page.getByRole("button", { name: JSON.stringify({ $or: or }), exact: true }).click();
  await expect(page.getByRole("dialog", { name: "Combined filter" })).toBeVisible();
  await expectNoViolations(page, "combined filter", DIALOG);
});

for (const colorScheme of ["light", "dark"] as const) {
  test(`axe: main states in ${colorScheme} mode`, async ({ page }) => {
    test.slow();
    // dark mode only changes colours: check contrast where the colours differ most
    const every = colorScheme === "light";
    await page.emulateMedia({ colorScheme });
    await page.goto("/");
    await expect(page.getByRole("button", { name: /US flights/ })).toBeVisible();
    await expectNoSeriousViolations(page, "landing");

    if (every) {
      await page.getByLabel("Resource", { exact: true }).click();
      await expect(page.getByRole("listbox")).toBeVisible();
      await expectNoSeriousViolations(page, "resource list open");
      await page.keyboard.press("Escape");
    }

    await page.goto(FLIGHTS);
    await waitForRows(page);
    await expectNoSeriousViolations(page, "table");
    await shot(page, `10-table-${colorScheme}`);

    await page.getByRole("button", { name: "Add filter" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "destination", exact: true }).click();
    await expect(page.getByRole("dialog").getByRole("checkbox").first()).toBeVisible();
    await expectNoSeriousViolations(page, "filter dialog");
    await shot(page, `11-filter-dialog-${colorScheme}`);
    await page.keyboard.press("Escape");

    if (every) {
      await dataRows(page).first().click();
      await expect(page.getByRole("dialog")).toBeVisible();
      await expectNoSeriousViolations(page, "record detail");
      await page.keyboard.press("Escape");

      await page.getByRole("button", { name: /^API/ }).click();
      await expectNoSeriousViolations(page, "API panel");
    }

    await page.goto("/?resource_id=flights-20k&q=zzqqxx");
    await expect(page.getByText("No records match")).toBeVisible();
    await expectNoSeriousViolations(page, "empty result");

    await page.goto("/?resource_id=birdstrikes");
    await expect(page.getByRole("alert").filter({ hasText: "is private" })).toBeVisible();
    await expectNoSeriousViolations(page, "private without token");
  });
}

test("axe: the Tokens page", async ({ page }) => {
  await page.goto("/tokens");
  await expect(page.getByText("Managing tokens needs an admin token")).toBeVisible();
  await expectNoViolations(page, "Tokens page without a token");
  await page.getByLabel("Token", { exact: true }).fill(ADMIN_TOKEN);
  await page.getByRole("button", { name: "Use token" }).click();
  await page.getByLabel("Name").fill("axe check");
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByLabel("New secret")).toBeVisible();
  await settle(page);
  await expectNoViolations(page, "Tokens page with a new token");
  await page.getByRole("button", { name: "Revoke axe check" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expectNoViolations(page, "revoke confirmation");
  await page.getByRole("dialog").getByRole("button", { name: "Revoke", exact: true }).click();
  await expect(page.getByRole("row", { name: /axe check/ })).toHaveCount(0);
});

test("usable at 375px wide", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto("/");
  await expect(page.getByRole("button", { name: /US flights/ })).toBeVisible();
  await shot(page, "12-mobile-landing");
  await page.goto(FLIGHTS);
  await waitForRows(page);
  // the page itself never scrolls sideways; the table scrolls inside its own box
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  for (const label of ["Resource", "Search", "Limit", "Token"]) await expect(page.getByLabel(label)).toBeVisible();
  await expect(page.getByRole("button", { name: "Add filter" })).toBeVisible();
  await expectNoSeriousViolations(page, "375px table");
  await shot(page, "13-mobile-table");
  await page.getByRole("button", { name: "Add filter" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "origin", exact: true }).click();
  await shot(page, "14-mobile-filter-dialog");
});

test("1000 rows stay smooth: the table renders only what is on screen", async ({ page }) => {
  await page.goto("/?resource_id=flights-20k&limit=1000");
  await waitForRows(page);
  await expect(page.getByRole("navigation", { name: "Pages" })).toContainText("1–1,000 of 20,000");
  expect(await dataRows(page).count()).toBeLessThan(100);

  // End jumps to the last row of the page
  await dataRows(page).first().focus();
  await page.keyboard.press("End");
  await expect(page.getByRole("row").filter({ has: page.getByRole("cell", { name: "1000", exact: true }) })).toBeFocused();
  expect(await dataRows(page).count()).toBeLessThan(100);
});
