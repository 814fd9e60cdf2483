// Accessibility and layout: no serious or critical axe violations in the main states, in light
// and dark mode, at desktop width and at 375px.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./helpers/test";
import { dataRows, shot, waitForRows } from "./helpers/explorer";

async function expectNoSeriousViolations(page: Page, state: string) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const report = serious.map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => n.target.join(" ")).join("\n  ")}`);
  expect(report, `axe violations in ${state}`).toEqual([]);
}

const FLIGHTS = '/?resource_id=flights-20k&filters={"origin":["SEA","PDX"]}&limit=25';

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
      await page.getByLabel("Resource").click();
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
  const started = Date.now();
  await page.keyboard.press("End");
  await expect(page.getByRole("row").filter({ has: page.getByRole("cell", { name: "1000", exact: true }) })).toBeFocused();
  expect(Date.now() - started).toBeLessThan(2000);
});
