// A token limited to one resource and two actions, made on the Tokens page: the admin finds the
// resource by name, ticks the actions, and the list shows the token's limits. The API is the
// judge: the new secret reads and writes its resource, and another is refused; its write shows
// on the resource's page under Recent changes.
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./helpers/test";
import { ADMIN_TOKEN, shot } from "./helpers/explorer";

async function enterToken(page: Page, token: string) {
  const answered = page.waitForResponse((r) => r.url().endsWith("/api/action/datastore_whoami") && r.ok());
  await page.getByLabel("Token", { exact: true }).fill(token);
  await page.getByRole("button", { name: "Use token" }).click();
  await answered;
}

/** A table of the partner's own, so its write changes no sample data other journeys read. */
async function partnerTable(request: APIRequestContext): Promise<string> {
  const res = await request.post("/api/action/datastore_create", {
    data: { resource: { name: "e2e partner table" }, fields: [{ id: "stop", type: "text" }], records: [{ stop: "Central" }] },
    headers: { Authorization: ADMIN_TOKEN },
  });
  expect(res.status()).toBe(200);
  return (await res.json()).result.resource_id;
}

test("create a token limited to a resource and actions, and see its limits", async ({ page, request }) => {
  const name = "e2e partner";
  const own = await partnerTable(request);
  await page.goto("/tokens");
  await enterToken(page, ADMIN_TOKEN);
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Scope").selectOption("write");

  await page.getByLabel("Find a resource").fill("partner table");
  await page.getByRole("button", { name: "Add e2e partner table" }).click();
  const chosen = page.getByRole("list", { name: "Chosen resources" });
  await expect(chosen).toContainText("e2e partner table");
  await page.getByRole("checkbox", { name: "datastore_search", exact: true }).check();
  await page.getByRole("checkbox", { name: "datastore_upsert", exact: true }).check();
  await page.getByRole("checkbox", { name: "datastore_audit_list", exact: true }).check();
  await shot(page, "token-limits-01-form");
  await page.getByRole("button", { name: "Create token" }).click();
  const secret = await page.getByLabel("New secret").inputValue();
  expect(secret).toMatch(/^dsx_/);
  // the form is ready for the next one, without limits
  await expect(chosen).toHaveCount(0);
  await expect(page.getByLabel("Find a resource")).toHaveValue("");
  await expect(page.getByRole("checkbox", { name: "datastore_search", exact: true })).not.toBeChecked();

  const row = page.getByRole("table", { name: "API tokens" }).getByRole("row", { name: new RegExp(name) });
  await expect(row).toContainText("Resources: e2e partner table");
  await expect(row).toContainText("Actions: datastore_search, datastore_upsert, datastore_audit_list");
  await shot(page, "token-limits-02-listed");

  const post = (action: string, data: Record<string, unknown>) => request.post(`/api/action/${action}`, { data, headers: { Authorization: secret } });
  const me = (await (await post("datastore_whoami", {})).json()).result;
  expect(me).toMatchObject({ scope: "write", name, actions: ["datastore_search", "datastore_upsert", "datastore_audit_list"] });
  expect(me.resources).toEqual([own]);
  expect((await post("datastore_search", { resource_id: own, limit: 1 })).status()).toBe(200);
  expect((await post("datastore_upsert", { resource_id: own, method: "insert", records: [{ stop: "Harbour" }] })).status()).toBe(200);
  expect((await post("datastore_search", { resource_id: "penguins", limit: 1 })).status()).toBe(403);
  expect((await post("datastore_info", { resource_id: own })).status()).toBe(403);

  // the resource's page shows that write to a write token
  await page.getByRole("button", { name: "Done" }).click();
  await enterToken(page, secret);
  await page.goto(`/?resource_id=${own}`);
  await page.getByRole("button", { name: "Recent changes" }).click();
  const changes = page.getByRole("table", { name: /last writes to this resource/ });
  await expect(changes.getByRole("row").nth(1)).toContainText("datastore_upsert");
  await expect(changes.getByRole("row").nth(1)).toContainText(name);
  await shot(page, "token-limits-03-recent-changes");
});
