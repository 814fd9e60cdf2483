// Keyboard only: every step of the main journey without the mouse, with a visible focus ring.
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./helpers/test";
import { columnTexts, dataRows, rangeStatus, shot, waitForRows } from "./helpers/explorer";

function filtersInUrl(page: Page): unknown {
  const raw = new URL(page.url()).searchParams.get("filters");
  return raw === null ? null : JSON.parse(raw);
}

/** Presses Tab (or Shift+Tab) until `target` has focus; fails after `max` presses. */
async function tabTo(page: Page, target: Locator, { back = false, max = 40 } = {}) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
  }
  await expect(target).toBeFocused();
}

/** Presses ArrowDown until `target` has focus; fails after `max` presses. */
async function arrowTo(page: Page, target: Locator, max = 40) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press("ArrowDown");
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
  // The landing lists a page of resources by name; other journeys' resources may come first.
  await expect(page.getByRole("heading", { name: "Pick a resource to explore" })).toBeVisible();

  // pick a resource: type, arrow down, Enter
  const resource = page.getByLabel("Resource", { exact: true });
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
  // the field list is one Tab stop: the arrow keys move through it
  await expect(dialog.getByLabel("Field name")).toBeFocused();
  await arrowTo(page, dialog.getByRole("button", { name: "destination", exact: true }));
  await page.keyboard.press("Enter");
  await expect(dialog.getByLabel("Value")).toBeFocused();
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
  await shot(page, "09-keyboard-focus", { viewport: true });
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

test("Add filter from the keyboard alone: the focus is always where one types next", async ({ page }) => {
  test.slow();
  await page.goto("/?resource_id=flights-20k");
  await waitForRows(page);
  const add = page.getByRole("button", { name: "Add filter" });
  const dialog = page.getByRole("dialog");

  // Add filter, the field's name, Enter, a value, Enter: the chip, and the URL holds the filter
  await tabTo(page, add);
  await page.keyboard.press("Enter");
  await expect(dialog.getByLabel("Field name")).toBeFocused();
  await page.keyboard.type("origin");
  await expect(dialog.getByRole("button", { name: "origin", exact: true })).toBeVisible();
  await expect(dialog.getByRole("button", { name: "destination", exact: true })).toHaveCount(0);
  await page.keyboard.press("Enter");
  const value = dialog.getByLabel("Value");
  await expect(value).toBeFocused();
  await page.keyboard.type("SEA");
  await shot(page, "15-keyboard-filter-value");
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  const chip = page.getByRole("button", { name: "origin: SEA", exact: true });
  await expect(chip).toBeVisible();
  expect(filtersInUrl(page)).toEqual({ origin: "SEA" });
  await expect(add).toBeFocused();
  await waitForRows(page);
  for (const o of await columnTexts(page, "origin")) expect(o).toBe("SEA");
  await shot(page, "16-keyboard-filter-chip");

  // editing the chip opens on the value box; "Add value" hands the focus back to it
  await tabTo(page, chip, { back: true });
  await page.keyboard.press("Enter");
  await expect(value).toBeFocused();
  await expect(dialog.getByRole("checkbox", { name: /^SEA\b/ })).toBeChecked();
  await page.keyboard.type("PDX");
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: "Add value" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(value).toBeFocused();
  await expect(value).toHaveValue("");
  await expect(dialog.getByRole("checkbox", { name: /^PDX\b/ })).toBeChecked();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  const both = page.getByRole("button", { name: "origin: SEA or PDX", exact: true });
  await expect(both).toBeVisible();
  expect(filtersInUrl(page)).toEqual({ origin: ["SEA", "PDX"] });
  // the chip that opened the dialog has the focus back
  await expect(both).toBeFocused();

  // a range from the keyboard: the condition's radios, then From, To and Enter
  await tabTo(page, add);
  await page.keyboard.press("Enter");
  await page.keyboard.type("delay");
  await page.keyboard.press("Enter");
  await expect(value).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  await expect(dialog.getByRole("radio", { name: "is", exact: true })).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  const between = dialog.getByRole("radio", { name: "between", exact: true });
  await expect(between).toBeChecked();
  // changing the condition leaves the focus on it
  await expect(between).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(dialog.getByLabel("From")).toBeFocused();
  await page.keyboard.type("60");
  await page.keyboard.press("Tab");
  await expect(dialog.getByLabel("To")).toBeFocused();
  await page.keyboard.type("120");
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("button", { name: "delay: 60 to 120", exact: true })).toBeVisible();
  expect(filtersInUrl(page)).toEqual({ origin: ["SEA", "PDX"], delay: { gte: 60, lte: 120 } });
  await expect(add).toBeFocused();

  // the name box finds a field by its data dictionary label; a date opens on From
  await page.keyboard.press("Enter");
  await page.keyboard.type("departure");
  await expect(dialog.getByRole("button", { name: "date", exact: true })).toBeVisible();
  await expect(dialog.getByRole("button")).toHaveCount(2); // the field, and Close
  await page.keyboard.press("Enter");
  await expect(dialog.getByLabel("From")).toBeFocused();
  // "Back to fields" goes back to the name box
  await tabTo(page, dialog.getByRole("button", { name: "Back to fields" }));
  await page.keyboard.press("Enter");
  await expect(dialog.getByLabel("Field name")).toBeFocused();
  await page.keyboard.type("date");
  await page.keyboard.press("Enter");
  await expect(dialog.getByLabel("From")).toBeFocused();
  // Escape closes the dialog, and the focus goes back to its opener
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(add).toBeFocused();

  // arrow keys through a narrowed list, from the name box; Up from the first goes back to it
  await page.keyboard.press("Enter");
  await page.keyboard.type("dist");
  await page.keyboard.press("ArrowDown");
  await expect(dialog.getByRole("button", { name: "distance", exact: true })).toBeFocused();
  await page.keyboard.press("ArrowUp");
  await expect(dialog.getByLabel("Field name")).toBeFocused();
  await page.keyboard.press("Backspace");
  await page.keyboard.press("Backspace");
  await page.keyboard.press("Backspace");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  await expect(page.locator(":focus")).toHaveAccessibleName(/^(date|delay|distance|destination)$/);
  // a letter typed on the list goes on in the name box
  await page.keyboard.type("x");
  await expect(dialog.getByLabel("Field name")).toBeFocused();
  await expect(dialog.getByLabel("Field name")).toHaveValue("dx");
  await expect(dialog.getByText("No field’s name contains “dx”.")).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(dialog.getByLabel("Field name")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  // removing a chip in its dialog: the focus goes to Add filter, not to the page
  await tabTo(page, page.getByRole("button", { name: "delay: 60 to 120", exact: true }), { back: true });
  await page.keyboard.press("Enter");
  await expect(dialog.getByLabel("From")).toBeFocused();
  await tabTo(page, dialog.getByRole("button", { name: "Remove filter" }));
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("button", { name: /^delay:/ })).toHaveCount(0);
  await expect(add).toBeFocused();

  // the chip's ✕: the focus goes to the next chip, or to Add filter after the last
  await tabTo(page, page.getByRole("button", { name: "Remove filter origin: SEA or PDX" }), { back: true });
  await page.keyboard.press("Enter");
  await expect(both).toBeHidden();
  await expect(add).toBeFocused();
});

test("dialogs are modal: the page behind can't be focused or clicked", async ({ page }) => {
  await page.goto("/?resource_id=flights-20k");
  await waitForRows(page);
  const add = page.getByRole("button", { name: "Add filter" });
  await add.click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByLabel("Field name")).toBeFocused();

  // Tab and Shift+Tab stay in the dialog (past its ends the focus goes to the browser, not the page)
  for (const key of ["Tab", "Shift+Tab"]) {
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press(key);
      const where = await page.evaluate(() => {
        const el = document.activeElement;
        return !el || el === document.body ? "browser" : el.closest("dialog[open]") ? "dialog" : "page";
      });
      expect(where).not.toBe("page");
    }
  }
  // the page is inert: it takes no focus, and a click over it lands on the backdrop
  expect(await add.evaluate((el) => (el as HTMLElement).focus() === undefined && document.activeElement === el)).toBe(false);
  const row = (await dataRows(page).first().boundingBox())!;
  expect(await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.tagName, [row.x + 10, row.y + row.height / 2])).toBe("DIALOG");
  await page.mouse.click(row.x + 10, row.y + row.height / 2);
  await expect(dialog).toBeHidden();
  // the click closed the dialog and did not open the row
  await expect(page).not.toHaveURL(/record=/);
  await expect(add).toBeFocused();
});

test("an OR group's dialog opens on its JSON; Escape gives the focus back to its chip", async ({ page }) => {
  const or = [{ origin: "SEA" }, { delay: { gte: 300 } }];
  await page.goto(`/?resource_id=flights-20k&filters=${encodeURIComponent(JSON.stringify(or))}`);
  await waitForRows(page);
  const chip = page.getByRole("button", { name: JSON.stringify({ $or: or }), exact: true });
  await chip.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Combined filter" });
  await expect(dialog.locator("pre")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(chip).toBeFocused();
});

test("the view tabs: one Tab stop, arrow keys, Home and End", async ({ page }) => {
  await page.goto("/?resource_id=penguins");
  await waitForRows(page);
  const tabs = page.getByRole("tablist", { name: "Views" });
  const tab = (name: string) => tabs.getByRole("tab", { name, exact: true });
  await tabTo(page, tab("Table"));
  await expectVisibleFocus(page);
  await expect(tab("Table")).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("ArrowRight");
  await expect(tab("Summary")).toBeFocused();
  await expect(tab("Summary")).toHaveAttribute("aria-selected", "true");
  await expect(page).toHaveURL(/view=summary/);
  await expect(page.getByRole("tabpanel", { name: "Summary" })).toBeVisible();
  await page.keyboard.press("End");
  await expect(tab("Pivot")).toBeFocused();
  await expect(page).toHaveURL(/view=pivot/);
  await page.keyboard.press("ArrowRight");
  await expect(tab("Table")).toBeFocused();
  await expect(page).not.toHaveURL(/view=/);
  await page.keyboard.press("ArrowLeft");
  await expect(tab("Pivot")).toBeFocused();
  await page.keyboard.press("Home");
  await expect(tab("Table")).toBeFocused();
  await expect(page.getByRole("tabpanel", { name: "Table" })).toBeVisible();
  // the other tabs are not Tab stops: Tab goes on to the panel
  await page.keyboard.press("Tab");
  await expect(page.getByRole("tabpanel", { name: "Table" })).toBeFocused();
  await expectVisibleFocus(page);
});
