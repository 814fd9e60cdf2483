// Plain helpers for the journeys: drive the page by its labels, as a user would.
import { expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import fs from "node:fs";
import path from "node:path";

export const ADMIN_TOKEN = process.env.E2E_ADMIN_TOKEN ?? "e2e-admin-token";
// The PostgreSQL run has its own folder: it may run beside the SQLite one (scripts/test.mjs).
export const ARTIFACTS = path.join(process.cwd(), "e2e-artifacts", process.env.E2E_ENGINE === "postgres" ? "postgres" : "");
fs.mkdirSync(ARTIFACTS, { recursive: true });

/** Saves a full-page screenshot as e2e-artifacts/<name>.png (test-results/ is emptied each run).
 *  The page is laid out again at its full height while that is taken (the table's rows and the
 *  map redrawn): `viewport` takes what is on screen alone, where a hover or a focus must last. */
export async function shot(page: Page, name: string, { viewport = false } = {}) {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: !viewport });
}

export function recordsTable(page: Page): Locator {
  return page.getByRole("table");
}

/** Data rows of the table (the header row and virtualisation spacers excluded). */
export function dataRows(page: Page): Locator {
  return recordsTable(page).locator("tbody tr[data-index]");
}

export async function waitForRows(page: Page) {
  await expect(dataRows(page).first()).toBeVisible();
  await expect(recordsTable(page)).toHaveAttribute("aria-busy", "false");
}

export async function pickResource(page: Page, typed: string, option: RegExp | string) {
  const box = page.getByLabel("Resource", { exact: true });
  await box.click();
  await box.fill(typed);
  await page.getByRole("option", { name: option }).click();
}

export async function searchFor(page: Page, text: string) {
  await page.getByLabel("Search").fill(text);
}

export async function addFilter(page: Page, field: string, values: string[]) {
  await page.getByRole("button", { name: "Add filter" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: field, exact: true }).click();
  for (const v of values) {
    const suggestion = dialog.getByRole("checkbox", { name: new RegExp(`^${v}\\b`) });
    if (await suggestion.count()) {
      await suggestion.check();
    } else {
      // "Add value", not Enter: Enter applies the filter
      await dialog.getByLabel("Value").fill(v);
      await dialog.getByRole("button", { name: "Add value" }).click();
    }
  }
  await dialog.getByRole("button", { name: "Apply filter" }).click();
  await expect(dialog).toBeHidden();
}

/** The "101–200 of 1,234" text. */
export function rangeStatus(page: Page): Locator {
  return page.getByRole("navigation", { name: "Pages" }).locator("p");
}

/** Text of one column (named by its field id, or by the label its header shows), for the rows
 *  currently rendered: values as shown, in the reader's locale. */
export async function columnTexts(page: Page, column: string): Promise<string[]> {
  const headers = await recordsTable(page)
    .locator("thead th")
    .evaluateAll((ths) => ths.map((th) => [th.getAttribute("data-field") ?? "", th.querySelector("button")?.childNodes[0]?.textContent ?? ""]));
  const index = headers.findIndex((names) => names.includes(column));
  if (index < 0) throw new Error(`no column ${column} in ${headers.map((names) => names.join(" / ")).join(" | ")}`);
  return dataRows(page).locator(`td:nth-child(${index + 1})`).allInnerTexts();
}

export async function apiSearch(request: APIRequestContext, params: Record<string, unknown>, token?: string) {
  const res = await request.post("/api/action/datastore_search", {
    data: params,
    headers: token ? { Authorization: token } : {},
  });
  const body = await res.json();
  return body.result as { total: number; records: Record<string, unknown>[] };
}

/** A token of `scope`, made with the admin token through api_token_create. */
export async function createToken(request: APIRequestContext, scope: "read" | "write" | "admin", name = `e2e ${scope} ${Date.now()}`): Promise<string> {
  const res = await request.post("/api/action/api_token_create", { headers: { Authorization: ADMIN_TOKEN }, data: { name, scope } });
  expect(res.ok()).toBe(true);
  return (await res.json()).result.token as string;
}

/** Puts the token in the header's Token box, and waits until the page knows what it may do. */
export async function useToken(page: Page, token: string) {
  const whoami = page.waitForResponse((r) => r.url().endsWith("/api/action/datastore_whoami") && r.ok());
  await page.getByLabel("Token").fill(token);
  await page.getByRole("button", { name: "Use token" }).click();
  await whoami;
}
