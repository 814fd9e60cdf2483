// The Tokens page: an admin creates a token, sees its secret once, copies it, and revokes it;
// read and write tokens get neither the link nor the controls. The API is the judge of every
// step: the new secret must work, and stop working once revoked.
import type { APIRequestContext, Page, Request } from "@playwright/test";
import { expect, test } from "./helpers/test";
import { ADMIN_TOKEN, shot } from "./helpers/explorer";

async function whoami(request: APIRequestContext, token: string) {
  const res = await request.post("/api/action/datastore_whoami", { data: {}, headers: { Authorization: token } });
  expect(res.status()).toBe(200);
  const { scope, name } = (await res.json()).result as { scope: string | null; name: string | null };
  return { scope, name };
}

async function apiCreateToken(request: APIRequestContext, name: string, scope: string) {
  const res = await request.post("/api/action/api_token_create", { data: { name, scope }, headers: { Authorization: ADMIN_TOKEN } });
  expect(res.status()).toBe(200);
  return (await res.json()).result.token as string;
}

/** Enters `token` in the header's Token box and waits until the page knows what it may do. */
async function enterToken(page: Page, token: string) {
  const answered = page.waitForResponse((r) => r.url().endsWith("/api/action/datastore_whoami") && r.ok());
  await page.getByLabel("Token", { exact: true }).fill(token);
  await page.getByRole("button", { name: "Use token" }).click();
  await answered;
}

test("create and revoke a token on the Tokens page", async ({ page, request }) => {
  const requests: Request[] = [];
  page.on("request", (r) => requests.push(r));
  const name = "e2e publisher";

  await page.goto("/");
  await expect(page.getByRole("link", { name: "Tokens" })).toHaveCount(0);
  await enterToken(page, ADMIN_TOKEN);
  await page.getByRole("link", { name: "Tokens" }).click();
  await expect(page).toHaveURL(/\/tokens$/);
  await expect(page.getByRole("heading", { name: "Tokens", exact: true })).toBeVisible();
  const table = page.getByRole("table", { name: "API tokens" });
  await expect(table).toBeVisible();
  for (const column of ["Name", "Scope", "Created", "Last used", "Expires"]) {
    await expect(table.getByRole("columnheader", { name: column, exact: true })).toBeVisible();
  }
  await expect(table.getByRole("row", { name: new RegExp(name) })).toHaveCount(0);
  await shot(page, "tokens-01-page");

  // create a write token that expires in 30 days
  await expect(page.getByLabel("Scope")).toHaveValue("read");
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Scope").selectOption("write");
  await page.getByLabel("Expires in days").fill("30");
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByText("Copy this token now: it will not be shown again.")).toBeVisible();
  const shown = page.getByLabel("New secret");
  await expect(shown).toHaveAttribute("readonly", "");
  const secret = await shown.inputValue();
  expect(secret).toMatch(/^dsx_.{20,}/);
  // the header's Token box is still the one box a "Token" label finds
  await expect(page.getByLabel("Token")).toHaveCount(1);
  // the form is ready for the next one
  await expect(page.getByLabel("Name")).toHaveValue("");
  await expect(page.getByLabel("Scope")).toHaveValue("read");

  // listed, with its scope and expiry, never used yet
  const row = table.getByRole("row", { name: new RegExp(name) });
  await expect(row).toBeVisible();
  await expect(row.getByRole("cell").nth(0)).toHaveText("write");
  await expect(row.getByRole("cell").nth(2)).toHaveText("not yet");
  const expires = Date.parse(await row.getByRole("cell").nth(3).locator("time").getAttribute("datetime") ?? "");
  expect(Math.abs(expires - (Date.now() + 30 * 86400_000))).toBeLessThan(600_000);
  await shot(page, "tokens-02-created");

  await page.getByRole("button", { name: "Copy token" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

  // the secret works through the API, as a write token
  expect(await whoami(request, secret)).toEqual({ scope: "write", name });

  // shown once: Done hides it, and a reload does not bring it back
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByLabel("New secret")).toHaveCount(0);
  await expect(page.getByText("Copy this token now")).toHaveCount(0);
  await page.reload();
  await expect(row).toBeVisible();
  await expect(page.getByLabel("New secret")).toHaveCount(0);
  // now it has been used
  await expect(row.getByRole("cell").nth(2).locator("time")).toBeVisible();

  // never in a URL, a request other than the create's answer, or the browser's storage
  for (const r of requests) {
    expect(r.url()).not.toContain(secret);
    expect(r.postData() ?? "").not.toContain(secret);
  }
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
  expect(stored).not.toContain(secret);

  // revoke: Cancel keeps it, Revoke removes it
  await row.getByRole("button", { name: `Revoke ${name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Revoke “${name}”?` });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("Programs using it will lose access at once.");
  await shot(page, "tokens-03-revoke-confirm");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toBeVisible();
  expect((await whoami(request, secret)).scope).toBe("write");

  await row.getByRole("button", { name: `Revoke ${name}` }).click();
  await dialog.getByRole("button", { name: "Revoke", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toHaveCount(0);
  await expect(table).toBeFocused();
  await shot(page, "tokens-04-revoked");

  // the secret is refused now
  expect(await whoami(request, secret)).toEqual({ scope: null, name: null });
});

test("an API error is shown in the API's words", async ({ page }) => {
  await page.goto("/tokens");
  await enterToken(page, ADMIN_TOKEN);
  await page.getByLabel("Name").fill("too far");
  await page.getByLabel("Expires in days").fill("9999999999");
  await page.getByRole("button", { name: "Create token" }).click();
  // (Next's route announcer is an alert too: pick ours by its words)
  await expect(page.getByRole("alert").filter({ hasText: "expiry" })).toHaveText("expires_in: expiry is too far in the future");
  await expect(page.getByLabel("New secret")).toHaveCount(0);
  await expect(page.getByRole("table", { name: "API tokens" }).getByRole("row", { name: /too far/ })).toHaveCount(0);
});

test("a read-only token sees none of these controls", async ({ page, request }) => {
  const tokens = {
    read: await apiCreateToken(request, "e2e reader", "read"),
    write: await apiCreateToken(request, "e2e writer", "write"),
  };
  const message = page.getByText("Managing tokens needs an admin token. Enter one in the Token box above.");

  // no token at all
  await page.goto("/tokens");
  await expect(message).toBeVisible();

  for (const [scope, token] of Object.entries(tokens)) {
    await page.goto("/");
    await enterToken(page, token);
    await expect(page.getByText("A token is in use")).toBeVisible();
    await expect(page.getByRole("link", { name: "Tokens" })).toHaveCount(0);

    await page.goto("/tokens");
    await expect(message).toBeVisible();
    await expect(page.getByRole("heading", { name: "Tokens", exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: "Tokens" })).toHaveCount(0);
    await expect(page.getByRole("table")).toHaveCount(0);
    await expect(page.getByRole("button", { name: /Create token|Revoke/ })).toHaveCount(0);
    await expect(page.getByLabel("Name")).toHaveCount(0);
    await shot(page, `tokens-05-${scope}-token`);
    await page.getByRole("button", { name: "Forget token" }).click();
  }
});
