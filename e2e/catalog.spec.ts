// The landing page as a catalog (issue 28): find resources by a word, hide and show those without
// a data table, sort, page, reload to the same view; then search inside every table and open one
// at its matches.
import { expect, test } from "./helpers/test";
import { ADMIN_TOKEN, dataRows, waitForRows } from "./helpers/explorer";

test("find, sort and page the catalog, then search inside every table", async ({ page, request }) => {
  test.slow();
  const word = `quokka${Date.now()}`;
  const create = async (name: string, rows: number) => {
    const res = await request.post("/api/action/datastore_create", {
      data: {
        resource: { name, description: `Sightings of ${word}` },
        fields: [{ id: "place", type: "text" }],
        records: Array.from({ length: rows }, (_, i) => ({ place: i === 0 ? `Rottnest ${word}` : `Perth ${i}` })),
      },
      headers: { Authorization: ADMIN_TOKEN },
    });
    expect(res.ok()).toBe(true);
    return (await res.json()).result.resource_id as string;
  };
  // 25 with a table (one page is 24), most rows last by name; one without a table
  for (let i = 0; i < 24; i++) await create(`Quokka count ${String(i).padStart(2, "0")}`, 1);
  await create("Quokka zoo", 3);
  const gone = await create("Quokka gone", 1);
  expect((await request.post("/api/action/datastore_delete", { data: { resource_id: gone }, headers: { Authorization: ADMIN_TOKEN } })).ok()).toBe(true);

  await page.goto("/");
  await page.getByLabel("Find a resource").fill(word);
  await expect(page.getByRole("status").filter({ hasText: `25 resources match “${word}”` })).toBeVisible();
  await expect(page.getByRole("button", { name: /Quokka gone/ })).toHaveCount(0);
  await expect(page.getByText("Page 1 of 2")).toBeVisible();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText("Page 2 of 2")).toBeVisible();
  await expect(page.getByRole("button", { name: /Quokka zoo/ })).toBeVisible();

  await page.getByLabel("Show resources without a data table").check();
  await expect(page.getByRole("status").filter({ hasText: `26 resources match` })).toBeVisible();
  await page.getByLabel("Sort by").selectOption({ label: "Most rows" });
  const cards = page.getByRole("button", { name: /Quokka/ });
  await expect(cards.first()).toContainText("Quokka zoo");
  await expect(page).toHaveURL(/order_by=rows\+desc/);
  await expect(page).toHaveURL(/all=1/);

  // a reload shows the same view
  await page.reload();
  await expect(page.getByLabel("Find a resource")).toHaveValue(word);
  await expect(page.getByLabel("Show resources without a data table")).toBeChecked();
  await expect(cards.first()).toContainText("Quokka zoo");
  await expect(page.getByRole("status").filter({ hasText: `26 resources match` })).toBeVisible();

  // inside every table: each table's first row holds the word
  await page.getByRole("button", { name: `Search inside every table for “${word}”` }).click();
  await expect(page).toHaveURL(/inside=1/);
  const found = page.getByRole("region", { name: `Tables that contain “${word}”` });
  await expect(found.getByRole("link")).toHaveCount(25);
  const zoo = found.getByRole("listitem").filter({ has: page.getByRole("link", { name: "Quokka zoo" }) });
  await expect(zoo).toContainText("1 matching row");
  await expect(zoo).toContainText(`Rottnest ${word}`);
  await zoo.getByRole("link", { name: "Quokka zoo" }).click();
  await expect(page).toHaveURL(new RegExp(`q=${word}`));
  await waitForRows(page);
  await expect(dataRows(page)).toHaveCount(1);
});
