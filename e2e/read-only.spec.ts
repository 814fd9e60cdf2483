// What each scope is offered: a read token sees none of the publishing controls (on a keyed
// resource, in a record view, on /tokens); a write token sees the writing ones, so their absence
// above is the scope's doing and not a page that failed to draw them; only an admin token gets
// the Tokens link and page.
import type { Page } from "@playwright/test";
import { expect, test } from "./helpers/test";
import { ADMIN_TOKEN, createToken, dataRows, shot, useToken, waitForRows } from "./helpers/explorer";

const AIRPORTS = "/?resource_id=airports&limit=10";
const PAGE_CONTROLS = ["Upload data", "Edit details", "Add record", "Delete resource"];
const RECORD_CONTROLS = ["Edit record", "Delete record"];

async function openAirports(page: Page) {
  await page.goto(AIRPORTS);
  await waitForRows(page);
  await expect(page.getByRole("heading", { level: 2, name: "US airports" })).toBeVisible();
}

/** Opens the first row's record view, with its values shown. */
async function openRecord(page: Page) {
  await dataRows(page).first().click();
  const dialog = page.getByRole("dialog", { name: /^Record \d+$/ });
  await expect(dialog.getByRole("definition").first()).toBeVisible();
  return dialog;
}

const tokensLink = (page: Page) => page.getByRole("link", { name: "Tokens" });

test("a read-only token sees none of these controls", async ({ page, request }) => {
  const read = await createToken(request, "read");
  const write = await createToken(request, "write");
  const notAdmin = page.getByText("Managing tokens needs an admin token");

  // read: the explorer, a record view and /tokens offer nothing that writes
  await page.goto(AIRPORTS);
  await useToken(page, read);
  await expect(page.getByText("A token is in use")).toBeVisible();
  await openAirports(page);
  for (const name of PAGE_CONTROLS) await expect(page.getByRole("button", { name })).toHaveCount(0);
  await expect(tokensLink(page)).toHaveCount(0);
  await shot(page, "read-only-01-explorer");
  const record = await openRecord(page);
  for (const name of RECORD_CONTROLS) await expect(record.getByRole("button", { name })).toHaveCount(0);
  await shot(page, "read-only-02-record");
  await record.getByRole("button", { name: "Close" }).click();
  await expect(record).toBeHidden();

  await page.goto("/tokens");
  await expect(notAdmin).toBeVisible();
  await expect(tokensLink(page)).toHaveCount(0);
  await expect(page.getByRole("table")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Create token" })).toHaveCount(0);
  await expect(page.getByLabel("Name")).toHaveCount(0);
  await shot(page, "read-only-03-tokens");

  // write: the same places offer the writing controls, and still no Tokens link
  await page.goto(AIRPORTS);
  await useToken(page, write);
  await openAirports(page);
  for (const name of ["Upload data", "Edit details", "Add record"]) await expect(page.getByRole("button", { name })).toBeVisible();
  await page.getByRole("button", { name: "Edit details" }).click();
  const details = page.getByRole("dialog", { name: "Edit details" });
  await expect(details.getByRole("button", { name: "Delete resource" })).toBeVisible();
  await details.getByRole("button", { name: "Cancel" }).click();
  await expect(details).toBeHidden();
  await expect(tokensLink(page)).toHaveCount(0);
  await shot(page, "read-only-04-write-explorer");
  const writable = await openRecord(page);
  for (const name of RECORD_CONTROLS) await expect(writable.getByRole("button", { name })).toBeVisible();
  await shot(page, "read-only-05-write-record");
  await writable.getByRole("button", { name: "Close" }).click();

  await page.goto("/tokens");
  await expect(notAdmin).toBeVisible();
  await expect(tokensLink(page)).toHaveCount(0);
  await expect(page.getByRole("table")).toHaveCount(0);

  // admin: the link shows, and leads to the list and the form
  await useToken(page, ADMIN_TOKEN);
  await expect(tokensLink(page)).toBeVisible();
  await page.goto("/");
  await tokensLink(page).click();
  await expect(page).toHaveURL(/\/tokens$/);
  await expect(page.getByRole("table", { name: "API tokens" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Create token" })).toBeVisible();
  await shot(page, "read-only-06-admin-tokens");
});
