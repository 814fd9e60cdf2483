// Edit details with a write token: a field's Label becomes its column header (and CKAN clients
// read it from datastore_info); name, description and private change at once; a refused name
// shows the API's words and changes nothing; Delete resource asks first, then the resource is
// gone from the picker. A read token sees no "Edit details".
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./helpers/test";
import { ADMIN_TOKEN, createToken, recordsTable, shot, useToken, waitForRows } from "./helpers/explorer";
import { axe } from "./helpers/axe";

const admin = { Authorization: ADMIN_TOKEN };

/** A small resource made for the test, so the sample data stays as it is. */
async function createBooks(request: APIRequestContext, name: string, records = 3): Promise<string> {
  const res = await request.post("/api/action/datastore_create", {
    headers: admin,
    data: {
      resource: { name, description: "Made by the edit-details journey" },
      fields: [
        { id: "title", type: "text" },
        { id: "author", type: "text", info: { type_override: "text" } },
        { id: "pages", type: "int" },
      ],
      records: [
        { title: "War and Peace", author: "Tolstoy", pages: 1225 },
        { title: "Emma", author: "Austen", pages: 474 },
        { title: "Ulysses", author: "Joyce", pages: 730 },
      ].slice(0, records),
    },
  });
  expect(res.ok()).toBe(true);
  return (await res.json()).result.resource_id as string;
}

async function api(request: APIRequestContext, action: string, data: Record<string, unknown>) {
  const res = await request.post(`/api/action/${action}`, { headers: admin, data });
  return { status: res.status(), body: await res.json() };
}

/** No axe violation of any impact in the page as it is now (the dialog open). */
async function expectAccessible(page: Page, state: string) {
  const results = await axe(page).analyze();
  const report = results.violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => n.target.join(" ")).join("\n  ")}`);
  expect(report, `axe violations in ${state}`).toEqual([]);
}

test("edit a field's Label and see it as the column header; edit the details; delete with confirmation", async ({ page, request }) => {
  const stamp = Date.now();
  const id = await createBooks(request, `Journey books ${stamp}`);
  const doomedName = `Doomed books ${stamp}`;
  const doomed = await createBooks(request, doomedName, 2);
  const token = await createToken(request, "write");

  await page.goto(`/?resource_id=${id}`);
  await useToken(page, token);
  await waitForRows(page);
  await expect(recordsTable(page).getByRole("columnheader", { name: "author" })).toBeVisible();

  // the details, then the data dictionary on the same screen: one group per field, prefilled
  // from fields[].info; the resource's Description comes first
  await page.getByRole("button", { name: "Edit details" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit details" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("Name")).toHaveValue(`Journey books ${stamp}`);
  await expect(dialog.getByLabel("Description").first()).toHaveValue("Made by the edit-details journey");
  const author = dialog.getByRole("group", { name: "author" });
  await expect(author).toContainText("text");
  await expect(dialog.getByRole("group", { name: "pages" })).toContainText("whole number");
  await author.getByLabel("Label").fill("Written by");
  await author.getByLabel("Description").fill("Who wrote the book");
  await shot(page, "98-edit-details-dictionary");
  await expectAccessible(page, "the Edit details dialog");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();

  // the Label is the column header now; the id is still there for those who look
  const header = recordsTable(page).locator('th[data-field="author"]');
  await expect(header.getByRole("button")).toHaveAccessibleName(/^Written by/);
  await expect(recordsTable(page).getByRole("columnheader", { name: "Written by" })).toBeVisible();
  await shot(page, "98-edit-details-label-as-header");

  // CKAN's view: the label and notes are the field's info, its other keys kept
  const info = await api(request, "datastore_info", { resource_id: id });
  expect(info.body.result.fields).toEqual([
    { id: "title", type: "text", schema: expect.anything() },
    { id: "author", type: "text", info: { type_override: "text", label: "Written by", notes: "Who wrote the book" }, schema: expect.anything() },
    { id: "pages", type: "int4", schema: expect.anything() },
  ]);

  // name, description and private
  await page.getByRole("button", { name: "Edit details" }).click();
  await expect(dialog.getByRole("group", { name: "author" }).getByLabel("Label")).toHaveValue("Written by");
  await dialog.getByLabel("Name").fill(`Renamed books ${stamp}`);
  await dialog.getByLabel("Description").first().fill("Edited in the browser");
  await dialog.getByLabel("Private").check();
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();
  const title = page.getByRole("heading", { level: 2, name: `Renamed books ${stamp}` });
  await expect(title).toBeVisible();
  await expect(title.getByText("Private", { exact: true })).toBeVisible();
  await expect(page.getByText("Edited in the browser", { exact: true })).toBeVisible();
  await shot(page, "98-edit-details-renamed-private");
  expect((await api(request, "resource_show", { id })).body.result).toMatchObject({
    name: `Renamed books ${stamp}`,
    description: "Edited in the browser",
    private: true,
  });

  // a refused change: the API's words, the dialog stays, nothing changes
  await page.getByRole("button", { name: "Edit details" }).click();
  await dialog.getByLabel("Name").fill("");
  await dialog.getByLabel("Description").first().fill("Not to be kept");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByRole("alert")).toContainText("name: Missing value");
  await expect(dialog).toBeVisible();
  await shot(page, "98-edit-details-refused");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  expect((await api(request, "resource_show", { id })).body.result).toMatchObject({ name: `Renamed books ${stamp}`, description: "Edited in the browser" });

  // Delete resource asks first; Cancel goes back, Delete removes it
  await page.goto(`/?resource_id=${doomed}`);
  await waitForRows(page);
  await page.getByRole("button", { name: "Edit details" }).click();
  // what was typed before asking survives a cancelled delete
  await dialog.getByLabel("Name").fill(`${doomedName} (typed)`);
  await dialog.getByRole("button", { name: "Delete resource" }).click();
  await expect(dialog).toContainText(`Delete “${doomedName}” and its 2 records? This cannot be undone.`);
  await shot(page, "98-edit-details-confirm-delete");
  await expectAccessible(page, "the delete confirmation");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog.getByLabel("Name")).toHaveValue(`${doomedName} (typed)`);
  await dialog.getByRole("button", { name: "Delete resource" }).click();
  await dialog.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("heading", { name: "Pick a resource to explore" })).toBeVisible();
  expect(new URL(page.url()).searchParams.get("resource_id")).toBeNull();
  const box = page.getByLabel("Resource", { exact: true });
  await box.click();
  await box.fill("Doomed books");
  await expect(page.getByRole("option", { name: new RegExp(doomedName) })).toHaveCount(0);
  await box.fill("Renamed books");
  await expect(page.getByRole("option", { name: new RegExp(`Renamed books ${stamp}`) })).toBeVisible();
  await shot(page, "98-edit-details-deleted");
  expect((await api(request, "resource_show", { id: doomed })).status).toBe(404);

  await api(request, "resource_delete", { id });
});

test("a read token, or none, sees no Edit details", async ({ page, request }) => {
  const id = await createBooks(request, `Read-only books ${Date.now()}`);
  await page.goto(`/?resource_id=${id}`);
  await waitForRows(page);
  await expect(page.getByRole("button", { name: "Edit details" })).toHaveCount(0);
  await useToken(page, await createToken(request, "read"));
  await expect(page.getByText("A token is in use")).toBeVisible();
  await waitForRows(page);
  await expect(page.getByRole("button", { name: "Edit details" })).toHaveCount(0);
  await api(request, "resource_delete", { id });
});
