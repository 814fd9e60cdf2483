// Editing rows of a keyed resource (the sample airports, keyed by IATA code) with a write token:
// edit a record, see the table change at once; a bad number is refused with the API's words
// and nothing is written; add a record, delete it after confirming. A read token sees none of it.
import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./helpers/test";
import { ADMIN_TOKEN, apiSearch, columnTexts, createToken, dataRows, searchFor, shot, useToken, waitForRows } from "./helpers/explorer";
import { axe } from "./helpers/axe";

const NEW_CODE = "ZZE";

async function airport(request: APIRequestContext, code: string) {
  return (await apiSearch(request, { resource_id: "airports", filters: { iata: code }, limit: 1 })).records[0];
}

/** The resource's own id: writes refuse an alias, as CKAN's do. */
async function airportsId(request: APIRequestContext): Promise<string> {
  const res = await request.post("/api/action/datastore_info", { data: { resource_id: "airports" } });
  return (await res.json()).result.meta.id as string;
}

/** Puts the sample back as it was for the journeys that run after this one. */
async function restore(request: APIRequestContext, original: Record<string, unknown>) {
  const { _id, ...fields } = original;
  void _id;
  const resource_id = await airportsId(request);
  const headers = { Authorization: ADMIN_TOKEN };
  await request.post("/api/action/datastore_upsert", { headers, data: { resource_id, method: "update", records: [fields] } });
  await request.post("/api/action/datastore_records_delete", { headers, data: { resource_id, filters: { iata: NEW_CODE } } });
  expect(await airport(request, String(original.iata))).toEqual(original);
}

test("edit a row of a keyed resource: edit, a refused value, add, delete", async ({ page, request }) => {
  const token = await createToken(request, "write");
  await page.goto("/?resource_id=airports&limit=10");
  await useToken(page, token);
  await waitForRows(page);
  const code = (await columnTexts(page, "iata"))[0];
  const before = await airport(request, code);
  expect(before).toBeTruthy();
  const total = (await apiSearch(request, { resource_id: "airports", limit: 0 })).total;

  try {
    // open the record: the write controls are there
    await dataRows(page).first().click();
    const dialog = page.getByRole("dialog", { name: `Record ${before._id}` });
    await expect(dialog).toBeVisible();
    await shot(page, "90-edit-rows-record-view");

    // edit: one box per field, the key read-only
    await dialog.getByRole("button", { name: "Edit record" }).click();
    await expect(dialog.getByLabel("IATA code")).toHaveValue(code);
    await expect(dialog.getByLabel("IATA code")).not.toBeEditable();
    await expect(dialog.getByLabel("Airport")).toBeFocused();
    await expect(dialog.getByLabel("latitude")).toHaveValue(String(before.latitude));
    const renamed = `${before.name} (renamed)`;
    await dialog.getByLabel("Airport").fill(renamed);
    await shot(page, "91-edit-rows-form");
    await dialog.getByRole("button", { name: "Save" }).click();

    // at once: back in the view, the table and the API hold the new value
    await expect(dialog.getByRole("button", { name: "Edit record" })).toBeFocused();
    await expect(dialog.getByRole("definition").filter({ hasText: renamed })).toBeVisible();
    await expect(dataRows(page).first()).toContainText(renamed);
    const edited = await airport(request, code);
    expect(edited).toEqual({ ...before, name: renamed });
    await shot(page, "92-edit-rows-saved");

    // a value that is not a number, with another change: the API's message, nothing written
    const refused = await request.post("/api/action/datastore_upsert", {
      headers: { Authorization: ADMIN_TOKEN },
      data: { resource_id: await airportsId(request), method: "update", records: [{ iata: code, latitude: "abc" }], dry_run: true },
    });
    expect(refused.status()).toBe(409);
    const message = (await refused.json()).error.records[0] as string;
    expect(message).toContain('"abc"');
    await dialog.getByRole("button", { name: "Edit record" }).click();
    await dialog.getByLabel("city").fill("Nowhere");
    await dialog.getByLabel("latitude").fill("abc");
    await dialog.getByRole("button", { name: "Save" }).click();
    const alert = dialog.getByRole("alert");
    await expect(alert).toContainText(message);
    await expect(dialog.getByLabel("latitude")).toHaveValue("abc");
    await shot(page, "93-edit-rows-refused");
    const scan = await axe(page, ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).include("dialog[open]").analyze();
    expect(scan.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    expect(await airport(request, code)).toEqual(edited);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog.getByRole("definition").filter({ hasText: String(before.city) }).first()).toBeVisible();
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toBeHidden();

    // add a record: in the API, in the counts, found by a search
    await page.getByRole("button", { name: "Add record" }).click();
    const add = page.getByRole("dialog", { name: "Add record" });
    // a code in use: the API's words, and the dialog stays to fix it
    await add.getByLabel("IATA code").fill(code);
    await add.getByRole("button", { name: "Save" }).click();
    await expect(add.getByRole("alert")).toContainText("duplicate key value violates unique constraint");
    await add.getByLabel("IATA code").fill(NEW_CODE);
    await add.getByLabel("Airport").fill("Edit Rows Field");
    await add.getByLabel("city").fill("Testville");
    await add.getByLabel("state").fill("OR");
    await add.getByLabel("country").fill("USA");
    await add.getByLabel("latitude").fill("45.5");
    await add.getByLabel("longitude").fill("-122.6");
    await shot(page, "94-edit-rows-add");
    await add.getByRole("button", { name: "Save" }).click();
    await expect(add).toBeHidden();
    await expect(page.getByText(`${(total + 1).toLocaleString("en-US")} records in total`)).toBeVisible();
    const added = await airport(request, NEW_CODE);
    expect(added).toMatchObject({ iata: NEW_CODE, name: "Edit Rows Field", city: "Testville", latitude: 45.5, longitude: -122.6 });
    await searchFor(page, "Testville");
    await expect(dataRows(page)).toHaveCount(1);
    await expect(dataRows(page).first()).toContainText("Edit Rows Field");
    await shot(page, "95-edit-rows-added");

    // delete it, after confirming
    await dataRows(page).first().click();
    const record = page.getByRole("dialog", { name: `Record ${added._id}` });
    await record.getByRole("button", { name: "Delete record" }).click();
    await expect(record.getByText("Delete this record? This cannot be undone.")).toBeVisible();
    await expect(record.getByRole("button", { name: "Edit record" })).toHaveCount(0);
    await shot(page, "96-edit-rows-delete-confirm");
    await record.getByRole("button", { name: "Delete", exact: true }).click();
    await expect(record).toBeHidden();
    await expect(page).not.toHaveURL(/record=/);
    await expect(page.getByText("No records match")).toBeVisible();
    await expect(page.getByText(`${total.toLocaleString("en-US")} records in total`)).toBeVisible();
    expect(await airport(request, NEW_CODE)).toBeUndefined();
  } finally {
    await restore(request, before);
  }
});

test("a read-only token sees none of these controls; a write token without a key gets a note", async ({ page, request }) => {
  await page.goto("/?resource_id=airports&limit=10");
  await useToken(page, await createToken(request, "read"));
  await waitForRows(page);
  await dataRows(page).first().click();
  const dialog = page.getByRole("dialog", { name: /^Record \d+$/ });
  await expect(dialog.getByRole("definition").first()).toBeVisible();
  for (const name of ["Edit record", "Delete record", "Add record"]) {
    await expect(page.getByRole("button", { name })).toHaveCount(0);
  }
  await shot(page, "97-edit-rows-read-token");

  // the controls need a key: penguins have none
  await page.goto("/");
  await useToken(page, await createToken(request, "write"));
  await page.goto("/?resource_id=penguins&record=5");
  const penguin = page.getByRole("dialog", { name: "Record 5" });
  await expect(penguin.getByText("Editing needs a primary key (set one with datastore_create).")).toBeVisible();
  for (const name of ["Edit record", "Delete record", "Add record"]) {
    await expect(page.getByRole("button", { name })).toHaveCount(0);
  }
});
