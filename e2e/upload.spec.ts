// Upload data: a write token sends a CSV, sees the preview, changes a type and creates the
// resource, whose rows the API then returns exactly. A ragged file is refused naming its line;
// Cancel leaves no resource and no upload behind; a read-only token is not offered the button.
import type { APIRequestContext, Page } from "@playwright/test";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "./helpers/test";
import { ADMIN_TOKEN, createToken, shot, useToken, waitForRows } from "./helpers/explorer";
import { axe } from "./helpers/axe";

async function resourceNames(request: APIRequestContext): Promise<string[]> {
  const res = await request.post("/api/action/resource_search", { data: { limit: 1000 }, headers: { Authorization: ADMIN_TOKEN } });
  return ((await res.json()).result.results as { name?: string; id: string }[]).map((r) => r.name ?? r.id);
}

/** No axe violation of any impact inside the open dialog, in light and dark mode. */
async function expectAccessibleDialog(page: Page, state: string) {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    const results = await axe(page).include("dialog[open]").analyze();
    expect(results.violations.map((v) => `${v.id} (${v.impact}): ${v.help}`), `axe violations in ${state}, ${colorScheme}`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: "light" });
}

function tempFile(name: string, content: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "upload-e2e-"));
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
}

const CITIES = "zip,city,population,opened\n10001,New York,21102,1904-10-27\n60601,Chicago,2746388,1892-06-06\n94105,San Francisco,873965,1972-09-11\n";

test("a read-only token is not offered Upload data; a write token is", async ({ page, request }) => {
  await page.goto("/");
  await useToken(page, await createToken(request, "read"));
  await expect(page.getByText("A token is in use")).toBeVisible();
  await expect(page.getByRole("button", { name: "Upload data" })).toHaveCount(0);
  await useToken(page, await createToken(request, "write"));
  await expect(page.getByRole("button", { name: "Upload data" })).toBeVisible();
});

test("upload a CSV, change one type, create the resource, find the rows exact through the API", async ({ page, request }) => {
  const token = await createToken(request, "write");
  await page.goto("/");
  await useToken(page, token);
  await page.getByRole("button", { name: "Upload data" }).click();
  const dialog = page.getByRole("dialog", { name: "Upload data" });
  await expect(dialog.getByLabel("File")).toBeVisible();
  // the page as a whole has one control for each of the labels (substring match)
  await expect(page.getByLabel("File")).toHaveCount(1);
  await expectAccessibleDialog(page, "choose a file");
  await shot(page, "upload-01-choose-file");

  await dialog.getByLabel("File").setInputFiles(tempFile("cities.csv", CITIES));
  // the preview: first rows and inferred types
  await expect(dialog.getByRole("cell", { name: "San Francisco" })).toBeVisible();
  await expect(dialog.getByLabel("Type of zip")).toHaveValue("int");
  await expect(dialog.getByLabel("Type of opened")).toHaveValue("date");
  await expect(dialog.getByLabel("Name", { exact: true })).toHaveValue("cities");
  await expect(dialog.getByRole("radio", { name: "New resource" })).toBeChecked();
  for (const label of ["Name", "Description", "Private"]) await expect(page.getByLabel(label)).toHaveCount(1);
  await expectAccessibleDialog(page, "the preview");
  await shot(page, "upload-02-preview");

  await dialog.getByLabel("Type of zip").selectOption("text");
  await dialog.getByLabel("Field id for city").fill("town");
  await dialog.getByLabel("Name", { exact: true }).fill("Uploaded cities");
  await dialog.getByLabel("Description").fill("Three cities, from the upload journey");
  await shot(page, "upload-03-changed");
  await dialog.getByRole("button", { name: "Create resource" }).click();

  // the new resource opens
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("heading", { name: "Uploaded cities" })).toBeVisible();
  await waitForRows(page);
  await shot(page, "upload-04-resource-open");
  const id = new URL(page.url()).searchParams.get("resource_id");
  expect(id).toBeTruthy();

  const res = await request.post("/api/action/datastore_search", {
    data: { resource_id: id, sort: "_id" },
    headers: { Authorization: token },
  });
  const { result } = await res.json();
  const types = Object.fromEntries((result.fields as { id: string; type: string }[]).map((f) => [f.id, f.type]));
  expect(types).toMatchObject({ zip: "text", town: "text", opened: "date" });
  expect(types.population).toMatch(/^int/);
  expect(result.records).toEqual([
    { _id: 1, zip: "10001", town: "New York", population: 21102, opened: "1904-10-27" },
    { _id: 2, zip: "60601", town: "Chicago", population: 2746388, opened: "1892-06-06" },
    { _id: 3, zip: "94105", town: "San Francisco", population: 873965, opened: "1972-09-11" },
  ]);
  // listed in the picker for everyone (it is not private)
  expect(await resourceNames(request)).toContain("Uploaded cities");
});

test("a ragged file is refused naming its line, and nothing is created", async ({ page, request }) => {
  const before = await resourceNames(request);
  await page.goto("/");
  await useToken(page, await createToken(request, "write"));
  await page.getByRole("button", { name: "Upload data" }).click();
  const dialog = page.getByRole("dialog", { name: "Upload data" });
  // dropped on the zone rather than chosen
  const dropped = await page.evaluateHandle(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(["a,b,c\n1,2,3\n4,5,6,7\n8,9,10\n"], "ragged.csv", { type: "text/csv" }));
    return transfer;
  });
  await dialog.getByText("Or drop a file here").dispatchEvent("drop", { dataTransfer: dropped });

  const alert = dialog.getByRole("alert");
  await expect(alert).toContainText(/line 3\b/);
  await expect(alert).toContainText("Nothing was written");
  // back to choosing a file
  await expect(dialog.getByLabel("File")).toBeVisible();
  await shot(page, "upload-05-ragged-row");
  expect(await resourceNames(request)).toEqual(before);
});

test("a value that does not fit the chosen type is refused naming its line; another type then imports", async ({ page, request }) => {
  const before = await resourceNames(request);
  await page.goto("/");
  await useToken(page, await createToken(request, "write"));
  await page.getByRole("button", { name: "Upload data" }).click();
  const dialog = page.getByRole("dialog", { name: "Upload data" });
  await dialog.getByLabel("File").setInputFiles(tempFile("codes.csv", "code,label\n1,one\n2,two\nx9,other\n"));
  await expect(dialog.getByLabel("Type of code")).toHaveValue("text");
  await dialog.getByLabel("Type of code").selectOption("int");
  await dialog.getByRole("button", { name: "Create resource" }).click();

  const alert = dialog.getByRole("alert");
  await expect(alert).toContainText(/line 4\b/);
  await expect(alert).toContainText("Nothing was written");
  await shot(page, "upload-07-bad-value");
  expect(await resourceNames(request)).toEqual(before);

  // the file stays on the server: change the type back and import without sending it again
  const sends: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && /\/api\/upload\?/.test(r.url())) sends.push(r.url());
  });
  await dialog.getByLabel("Type of code").selectOption("text");
  await dialog.getByRole("button", { name: "Create resource" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("heading", { name: "codes" })).toBeVisible();
  await waitForRows(page);
  expect(sends).toEqual([]);
});

/** Waits for the DELETE the page sends for its upload; answers the upload id and the status. */
function deleteSent(page: Page): Promise<{ uploadId: string; status: number }> {
  return page
    .waitForResponse((r) => r.request().method() === "DELETE" && /\/api\/upload\/[^/]+$/.test(new URL(r.url()).pathname))
    .then((r) => ({ uploadId: decodeURIComponent(new URL(r.url()).pathname.split("/").pop()!), status: r.status() }));
}

async function expectUploadGone(request: APIRequestContext, uploadId: string, token: string) {
  await expect
    .poll(async () => (await request.delete(`/api/upload/${encodeURIComponent(uploadId)}`, { headers: { Authorization: token } })).status())
    .toBe(404);
}

test("Cancel leaves nothing behind: after the preview, and during the import", async ({ page, request }) => {
  test.setTimeout(120_000);
  const token = await createToken(request, "write");
  const before = await resourceNames(request);
  await page.goto("/");
  await useToken(page, token);
  const dialog = page.getByRole("dialog", { name: "Upload data" });

  // at the preview: the upload is deleted
  await page.getByRole("button", { name: "Upload data" }).click();
  await dialog.getByLabel("File").setInputFiles(tempFile("cities.csv", CITIES));
  await expect(dialog.getByLabel("Type of zip")).toBeVisible();
  const first = deleteSent(page);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  // the page's DELETE removed an upload that existed; it is gone now
  expect((await first).status).toBe(200);
  await expectUploadGone(request, (await first).uploadId, token);

  // during the import: rolled back, and the upload deleted
  const rows = Array.from({ length: 600_000 }, (_, i) => `${i},name ${i},${(i * 7) % 1000}.25,2020-01-0${(i % 9) + 1}`);
  const big = tempFile("big.csv", `n,label,amount,day\n${rows.join("\n")}\n`);
  await page.getByRole("button", { name: "Upload data" }).click();
  await dialog.getByLabel("File").setInputFiles(big);
  await dialog.getByLabel("Name", { exact: true }).fill("Cancelled upload");
  await dialog.getByRole("button", { name: "Create resource" }).click();
  const bar = dialog.getByRole("progressbar", { name: "Upload progress" });
  await expect(bar).toHaveAttribute("aria-valuetext", /rows imported/);
  await shot(page, "upload-06-importing");
  const second = deleteSent(page);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  // the server may have removed it already when the import's connection closed
  expect([200, 404]).toContain((await second).status);
  // The server removes the upload only once its import has ended, after the rollback (or the
  // commit, had the Cancel come too late): gone, and no new resource, is rolled back, not unfinished.
  await expectUploadGone(request, (await second).uploadId, token);
  expect(await resourceNames(request)).toEqual(before);
});
