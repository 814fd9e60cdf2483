// Keyboard only: every step of the main journey without the mouse, with a visible focus ring.
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./helpers/test";
import { columnTexts, dataRows, rangeStatus, shot, waitForRows } from "./helpers/explorer";

/** Presses Tab (or Shift+Tab) until `target` has focus; fails after `max` presses. */
async function tabTo(page: Page, target: Locator, { back = false, max = 40 } = {}) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
  }
  await expect(target).toBeFocused();
}

async function expectVisibleFocus(page: Page) {
  const outline = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const style = getComputedStyle(el);
    return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
  });
  expect(outline.style).not.toBe("none");
  expect(outline.width).toBeGreaterThan(0);
}

test("the whole journey works from the keyboard", async ({ page }) => {
  test.slow();
  await page.goto("/");
  await expect(page.getByRole("button", { name: /US flights/ })).toBeVisible();

  // pick a resource: type, arrow down, Enter
  const resource = page.getByLabel("Resource");
  await tabTo(page, resource);
  await expectVisibleFocus(page);
  await page.keyboard.type("flights");
  await expect(page.getByRole("option", { name: /US flights/ })).toBeVisible();
  await page.keyboard.press("Enter");
  await waitForRows(page);
  await expect(resource).toHaveValue(/US flights/);

  // search
  await tabTo(page, page.getByLabel("Search"));
  await page.keyboard.type("SEA");
  await expect(page).toHaveURL(/q=SEA/);
  await waitForRows(page);

  // add a chip: Add filter, field, two values, apply
  const add = page.getByRole("button", { name: "Add filter" });
  await tabTo(page, add);
  await expectVisibleFocus(page);
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await tabTo(page, dialog.getByRole("button", { name: "destination", exact: true }));
  await page.keyboard.press("Enter");
  for (const value of ["LAX", "SFO"]) {
    const box = dialog.getByRole("checkbox", { name: new RegExp(`^${value}\\b`) });
    await tabTo(page, box);
    await page.keyboard.press("Space");
    await expect(box).toBeChecked();
  }
  await tabTo(page, dialog.getByRole("button", { name: "Apply filter" }));
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  const chip = page.getByRole("button", { name: "destination: LAX or SFO", exact: true });
  await expect(chip).toBeVisible();
  // focus returns to where the dialog was opened from
  await expect(add).toBeFocused();

  // limit
  const limit = page.getByLabel("Limit");
  await tabTo(page, limit);
  await page.keyboard.press("ArrowUp");
  await expect(limit).toHaveValue("50");
  await expect(rangeStatus(page)).toHaveText(/^1–50 of/);

  // sort by a header
  const delay = page.getByRole("columnheader", { name: "delay" });
  await tabTo(page, delay.getByRole("button"));
  await expectVisibleFocus(page);
  await page.keyboard.press("Enter");
  await expect(delay).toHaveAttribute("aria-sort", "ascending");
  await waitForRows(page);

  // rows: one tab stop, arrows move, Enter opens the record, Escape closes it
  await tabTo(page, dataRows(page).first());
  await expectVisibleFocus(page);
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await expect(dataRows(page).nth(2)).toBeFocused();
  const third = (await columnTexts(page, "_id"))[2];
  await shot(page, "09-keyboard-focus");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("dialog", { name: `Record ${third}` })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toBeHidden();
  await expect(dataRows(page).nth(2)).toBeFocused();

  // paging from the keyboard
  await tabTo(page, page.getByRole("button", { name: "Next", exact: true }), { back: true });
  await page.keyboard.press("Enter");
  await expect(rangeStatus(page)).toHaveText(/^51–/);

  // remove the chip from the keyboard
  await tabTo(page, page.getByRole("button", { name: /^Remove filter destination/ }), { back: true });
  await page.keyboard.press("Enter");
  await expect(chip).toBeHidden();
});
