// A resource whose table was deleted (datastore_delete without filters) stays listed, with a
// plain "no data table" note instead of rows; loading data again brings its table back.
import { expect, test } from "./helpers/test";
import { ADMIN_TOKEN, dataRows, waitForRows } from "./helpers/explorer";

test("a resource without a data table says so, and shows rows again once reloaded", async ({ page, request }) => {
  const admin = { Authorization: ADMIN_TOKEN };
  const id = `no-table-${Date.now()}`;
  const create = (records: unknown[]) =>
    request.post("/api/action/datastore_create", {
      data: { resource_id: id, fields: [{ id: "word", type: "text" }], records },
      headers: admin,
    });
  expect((await create([{ word: "first" }])).ok()).toBe(true);
  expect((await request.post("/api/action/datastore_delete", { data: { resource_id: id }, headers: admin })).ok()).toBe(true);

  await page.goto("/");
  const box = page.getByLabel("Resource", { exact: true });
  await box.click();
  await box.fill(id);
  const option = page.getByRole("option", { name: new RegExp(id) });
  await expect(option).toContainText("No data table");
  await option.click();
  await expect(page.getByRole("status").filter({ hasText: "No data table" })).toBeVisible();
  await expect(page.getByRole("table")).toHaveCount(0);

  expect((await create([{ word: "second" }])).ok()).toBe(true);
  await page.reload();
  await waitForRows(page);
  await expect(dataRows(page)).toHaveCount(1);
  await expect(dataRows(page).first()).toContainText("second");
});
