// The API panel's GET URL, POST body and curl show the request behind the view: fetching them
// returns the records on screen. "Copy link" copies the page's own URL.
import { expect, test } from "./helpers/test";
import { columnTexts, shot, waitForRows } from "./helpers/explorer";

const VIEW = '/?resource_id=flights-20k&q=SEA&filters={"destination":["LAX","SFO"]}&sort=delay desc&limit=10&offset=10';

async function clipboard(page: import("@playwright/test").Page) {
  return page.evaluate(() => navigator.clipboard.readText());
}

test("the copied GET URL and POST body return the same records", async ({ page, request, baseURL }) => {
  await page.goto(VIEW);
  await waitForRows(page);
  const shown = await columnTexts(page, "_id");
  expect(shown).toHaveLength(10);

  await page.getByRole("button", { name: /^API/ }).click();
  await page.getByRole("button", { name: "Copy GET URL" }).click();
  await expect(page.getByText("Copied")).toBeVisible();
  const url = await clipboard(page);
  expect(url.startsWith(`${baseURL}/api/action/datastore_search?`)).toBe(true);
  // The request as the explorer sends it: large totals may come back estimated.
  expect(new URL(url).searchParams.get("total_estimation_threshold")).toBe("100000");
  const viaGet = await (await request.get(url)).json();
  expect(viaGet.success).toBe(true);
  expect(viaGet.result.records.map((r: { _id: number }) => String(r._id))).toEqual(shown);

  await page.getByRole("button", { name: "Copy POST body" }).click();
  const body = JSON.parse(await clipboard(page));
  expect(body).toMatchObject({ resource_id: "flights-20k", filters: { destination: ["LAX", "SFO"] }, limit: 10, offset: 10, total_estimation_threshold: 100000 });
  const viaPost = await (await request.post("/api/action/datastore_search", { data: body })).json();
  expect(viaPost.result.records.map((r: { _id: number }) => String(r._id))).toEqual(shown);

  await page.getByRole("button", { name: "Copy curl command" }).click();
  const curl = await clipboard(page);
  expect(curl).toContain("curl -X POST");
  expect(curl).toContain("Authorization: YOUR-API-TOKEN");
  await shot(page, "06-api-panel");
});

test("Copy link copies the view's URL, which restores it", async ({ page, context }) => {
  await page.goto(VIEW);
  await waitForRows(page);
  const shown = await columnTexts(page, "_id");
  await page.getByRole("button", { name: "Copy link" }).click();
  const link = await clipboard(page);
  expect(link).toBe(page.url());

  const other = await context.newPage();
  await other.goto(link);
  await waitForRows(other);
  expect(await columnTexts(other, "_id")).toEqual(shown);
  await expect(other.getByLabel("Search")).toHaveValue("SEA");
  await expect(other.getByRole("button", { name: "destination: LAX or SFO", exact: true })).toBeVisible();
});
