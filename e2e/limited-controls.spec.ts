// A write token limited to one resource, or to some actions, is offered the write controls the
// API would let it use and no others: on its own resource (opened by its alias) Edit details, Add
// record, Save view, Recent changes and a record's Edit and Delete; on another resource none
// (the API refuses it that resource). A token that may only delete rows sees Delete record alone.
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./helpers/test";
import { ADMIN_TOKEN, dataRows, shot, useToken, waitForRows } from "./helpers/explorer";

const ALIAS = "e2e_limited_stops";

/** A keyed table of the journey's own, so nothing here changes sample data. */
async function ownTable(request: APIRequestContext, alias?: string): Promise<string> {
  const res = await request.post("/api/action/datastore_create", {
    headers: { Authorization: ADMIN_TOKEN },
    data: {
      resource: { name: "e2e limited stops" },
      ...(alias ? { aliases: alias } : {}),
      fields: [{ id: "stop", type: "text" }, { id: "lines", type: "int" }],
      primary_key: "stop",
      records: [{ stop: "Central", lines: 4 }, { stop: "Harbour", lines: 2 }],
    },
  });
  expect(res.status()).toBe(200);
  return (await res.json()).result.resource_id;
}

async function limitedToken(request: APIRequestContext, limits: { resources: string[]; actions?: string[] }): Promise<string> {
  const res = await request.post("/api/action/api_token_create", {
    headers: { Authorization: ADMIN_TOKEN },
    data: { name: `e2e limited ${Date.now()}`, scope: "write", ...limits },
  });
  expect(res.status()).toBe(200);
  return (await res.json()).result.token;
}

function button(page: Page, name: string) {
  return page.getByRole("button", { name, exact: true });
}

async function openFirstRecord(page: Page) {
  await dataRows(page).first().click();
  const dialog = page.getByRole("dialog", { name: /^Record \d+$/ });
  await expect(dialog).toBeVisible();
  return dialog;
}

test("a token limited to one resource has write controls there, and none on another", async ({ page, request }) => {
  const own = await ownTable(request, ALIAS);
  const token = await limitedToken(request, { resources: [own] });
  await page.goto(`/?resource_id=${ALIAS}`);
  await useToken(page, token);
  await waitForRows(page);
  for (const name of ["Edit details", "Add record", "Save view", "Recent changes", "Upload data"]) await expect(button(page, name)).toBeVisible();
  const record = await openFirstRecord(page);
  await expect(record.getByRole("button", { name: "Edit record" })).toBeVisible();
  await expect(record.getByRole("button", { name: "Delete record" })).toBeVisible();
  await shot(page, "limited-controls-01-own");
  await page.keyboard.press("Escape");

  // another resource: the API refuses it to this token, and the page offers no write to it
  await page.goto("/?resource_id=airports");
  await expect(page.getByRole("alert").filter({ hasText: "This resource is private" })).toBeVisible();
  for (const name of ["Edit details", "Add record", "Save view", "Recent changes"]) await expect(button(page, name)).toHaveCount(0);
  // the token may still import into its own resource
  await expect(button(page, "Upload data")).toBeVisible();
  await shot(page, "limited-controls-02-other");
});

test("a token limited to deleting rows is offered Delete record alone", async ({ page, request }) => {
  const own = await ownTable(request);
  const token = await limitedToken(request, { resources: [own], actions: ["datastore_search", "datastore_info", "resource_show", "datastore_records_delete"] });
  await page.goto(`/?resource_id=${own}`);
  await useToken(page, token);
  await waitForRows(page);
  const record = await openFirstRecord(page);
  await expect(record.getByRole("button", { name: "Delete record" })).toBeVisible();
  await expect(record.getByRole("button", { name: "Edit record" })).toHaveCount(0);
  await page.keyboard.press("Escape");
  for (const name of ["Edit details", "Add record", "Save view", "Recent changes", "Upload data"]) await expect(button(page, name)).toHaveCount(0);
  await shot(page, "limited-controls-03-delete-only");
});
