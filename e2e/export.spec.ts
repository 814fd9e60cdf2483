// Export downloads every matching row of the view (not just the page) through the dump endpoint.
import { expect, test } from "./helpers/test";
import fs from "node:fs";
import { ADMIN_TOKEN, apiSearch, waitForRows } from "./helpers/explorer";

test("CSV and JSON exports hold all matching rows in the view's order and columns", async ({ page, request }) => {
  await page.goto('/?resource_id=flights-20k&filters={"origin":["SEA","PDX"]}&sort=delay desc&fields=_id,origin,delay&limit=10');
  await waitForRows(page);
  const all = await apiSearch(request, {
    resource_id: "flights-20k",
    filters: { origin: ["SEA", "PDX"] },
    sort: "delay desc",
    fields: ["_id", "origin", "delay"],
    limit: 32000,
  });
  expect(all.total).toBeGreaterThan(10);

  const [csv] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).click()]);
  expect(csv.suggestedFilename()).toMatch(/\.csv$/);
  const lines = fs.readFileSync((await csv.path())!, "utf8").replace(/^\uFEFF/, "").trim().split(/\r?\n/);
  expect(lines[0]).toBe("_id,origin,delay");
  expect(lines).toHaveLength(all.total + 1);
  expect(lines[1]).toBe(`${all.records[0]._id},${all.records[0].origin},${all.records[0].delay}`);

  const [json] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download JSON" }).click()]);
  const dump = JSON.parse(fs.readFileSync((await json.path())!, "utf8"));
  expect(dump.records).toHaveLength(all.total);
  expect(dump.fields.map((f: { id: string }) => f.id)).toEqual(["_id", "origin", "delay"]);
});

test("export of a private resource uses the token", async ({ page }) => {
  await page.goto("/?resource_id=birdstrikes&limit=10");
  await page.getByLabel("Token").fill(ADMIN_TOKEN);
  await page.getByRole("button", { name: "Use token" }).click();
  await waitForRows(page);
  const [csv] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download CSV" }).click()]);
  const text = fs.readFileSync((await csv.path())!, "utf8");
  expect(text.trim().split(/\r?\n/).length).toBe(10_001);
});
