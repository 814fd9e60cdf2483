// A token limited to one resource and two actions, made on the Tokens page: the admin finds the
// resource by name, ticks the actions, and the list shows the token's limits. The API is the
// judge: the new secret reads its resource, and another is refused.
import type { Page } from "@playwright/test";
import { expect, test } from "./helpers/test";
import { ADMIN_TOKEN, shot } from "./helpers/explorer";

async function enterToken(page: Page, token: string) {
  const answered = page.waitForResponse((r) => r.url().endsWith("/api/action/datastore_whoami") && r.ok());
  await page.getByLabel("Token", { exact: true }).fill(token);
  await page.getByRole("button", { name: "Use token" }).click();
  await answered;
}

test("create a token limited to a resource and actions, and see its limits", async ({ page, request }) => {
  const name = "e2e partner";
  await page.goto("/tokens");
  await enterToken(page, ADMIN_TOKEN);
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Scope").selectOption("write");

  await page.getByLabel("Find a resource").fill("penguins");
  await page.getByRole("button", { name: /^Add .*penguins/i }).first().click();
  const chosen = page.getByRole("list", { name: "Chosen resources" });
  await expect(chosen).toContainText(/penguins/i);
  await page.getByRole("checkbox", { name: "datastore_search", exact: true }).check();
  await page.getByRole("checkbox", { name: "datastore_upsert", exact: true }).check();
  await shot(page, "token-limits-01-form");
  await page.getByRole("button", { name: "Create token" }).click();
  const secret = await page.getByLabel("New secret").inputValue();
  expect(secret).toMatch(/^dsx_/);
  // the form is ready for the next one, without limits
  await expect(chosen).toHaveCount(0);
  await expect(page.getByLabel("Find a resource")).toHaveValue("");
  await expect(page.getByRole("checkbox", { name: "datastore_search", exact: true })).not.toBeChecked();

  const row = page.getByRole("table", { name: "API tokens" }).getByRole("row", { name: new RegExp(name) });
  await expect(row).toContainText(/Resources: .*penguins/i);
  await expect(row).toContainText("Actions: datastore_search, datastore_upsert");
  await shot(page, "token-limits-02-listed");

  const post = (action: string, data: Record<string, unknown>) => request.post(`/api/action/${action}`, { data, headers: { Authorization: secret } });
  const me = (await (await post("datastore_whoami", {})).json()).result;
  expect(me).toMatchObject({ scope: "write", name, actions: ["datastore_search", "datastore_upsert"] });
  expect(me.resources).toHaveLength(1);
  expect((await post("datastore_search", { resource_id: "penguins", limit: 1 })).status()).toBe(200);
  expect((await post("datastore_search", { resource_id: "airports", limit: 1 })).status()).toBe(403);
  expect((await post("datastore_info", { resource_id: "penguins" })).status()).toBe(403);
});
