// History in the explorer (issue 27): a record changed through the API shows the change in its
// History (when, by which token, old → new); As of a moment before the change shows the old
// value, marked as the past, with editing off; a link to this version, opened after the data
// changed, says how many rows differ and leads back to the current data, and shows a field
// dropped since with its values; a moment before the table existed is refused with the API's reason.
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./helpers/test";
import { axe } from "./helpers/axe";
import { ADMIN_TOKEN, columnTexts, createToken, dataRows, shot, useToken, waitForRows } from "./helpers/explorer";

// The As of box takes the reader's local time: the browser's zone is fixed so the test can type one.
test.use({ timezoneId: "UTC" });

async function api(request: APIRequestContext, action: string, data: object, token = ADMIN_TOKEN) {
  const res = await request.post(`/api/action/${action}`, { headers: { Authorization: token }, data });
  const body = await res.json();
  expect(body.success, `${action}: ${JSON.stringify(body.error)}`).toBe(true);
  return body.result;
}

/** What <input type="datetime-local" step="1"> holds for a UTC time, to the second. */
function localInput(d: Date): string {
  return d.toISOString().slice(0, 19);
}

async function expectAccessible(page: Page, selector: string) {
  const scan = await axe(page).include(selector).analyze();
  expect(scan.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`), selector).toEqual([]);
}

async function visitorsOf(page: Page, code: string): Promise<string> {
  const codes = await columnTexts(page, "code");
  return (await columnTexts(page, "visitors"))[codes.indexOf(code)];
}

test("a record's History, the table As of before a change, and a link to this version", async ({ page, request }) => {
  const name = `history journey ${Date.now()}`;
  const tokenName = `e2e history ${Date.now()}`;
  const token = await createToken(request, "write", tokenName);
  const created = await api(request, "datastore_create", {
    resource: { name },
    fields: [
      { id: "code", type: "text" },
      { id: "city", type: "text" },
      { id: "visitors", type: "int" },
    ],
    primary_key: "code",
    records: [
      { code: "A", city: "Oslo", visitors: 10 },
      { code: "B", city: "Rome", visitors: 20 },
      { code: "C", city: "Lima", visitors: 30 },
    ],
  });
  const id = created.resource_id as string;
  try {
    // a moment after the table was made, a whole second before the change
    const before = new Date(Math.ceil((Date.now() + 1) / 1000) * 1000);
    await new Promise((r) => setTimeout(r, Math.max(0, before.getTime() - Date.now()) + 1100));
    await api(request, "datastore_upsert", { resource_id: id, method: "upsert", records: [{ code: "A", visitors: 15 }] }, token);

    await page.goto(`/?resource_id=${encodeURIComponent(id)}&sort=code`);
    await useToken(page, token);
    await waitForRows(page);
    expect(await visitorsOf(page, "A")).toBe("15");

    // History: the change, when, by which token, old → new
    await dataRows(page).first().click();
    const record = page.getByRole("dialog", { name: /^Record \d+$/ });
    await record.getByRole("button", { name: "History" }).click();
    const changed = record.getByRole("listitem").filter({ hasText: "Changed" });
    await expect(changed).toContainText(`by ${tokenName}`);
    await expect(changed.getByRole("definition")).toHaveText(/10\s*→\s*to\s*15/);
    await expect(record.getByRole("listitem").filter({ hasText: "Added" })).toBeVisible();
    await shot(page, "40-history-record");
    await expectAccessible(page, "dialog[open]");
    await page.keyboard.press("Escape");
    await expect(record).toBeHidden();

    // As of before the change: the old value, marked, in the URL; no editing
    await page.getByLabel("As of").fill(localInput(before));
    await page.getByRole("button", { name: "Show as of" }).click();
    const banner = page.getByRole("region", { name: "Past data" });
    await expect(banner.getByRole("status")).toContainText(/Shown as of .+, version \d+/);
    await expect(banner).toContainText("1 row differs from the current data.");
    await expect(page).toHaveURL(/[?&]as_of=/);
    await waitForRows(page);
    expect(await visitorsOf(page, "A")).toBe("10");
    await expect(page.getByRole("button", { name: "Add record" })).toHaveCount(0);
    await dataRows(page).first().click();
    await expect(record.getByText(/Editing is off while the table is shown as it was/)).toBeVisible();
    await expect(record.getByRole("button", { name: "Edit record" })).toHaveCount(0);
    await shot(page, "41-history-as-of");
    await page.keyboard.press("Escape");

    // back to the current data; copy the link to this version
    await banner.getByRole("button", { name: "Show the current data" }).click();
    await expect(banner).toBeHidden();
    await expect(page).not.toHaveURL(/as_of=/);
    await page.getByRole("button", { name: "Share" }).click();
    await page.getByRole("button", { name: "Copy link to this version" }).click();
    const pinned = await page.evaluate(() => navigator.clipboard.readText());
    expect(pinned).toMatch(/[?&]as_of=\d+(&|$)/);

    // the data changes; the pinned link still shows it as it was, and says how much differs
    await api(request, "datastore_upsert", { resource_id: id, method: "upsert", records: [{ code: "B", visitors: 21 }, { code: "C", city: "Quito" }] }, token);
    await page.goto(pinned);
    await waitForRows(page);
    await expect(banner).toContainText("2 rows differ from the current data.");
    expect(await visitorsOf(page, "B")).toBe("20");
    await shot(page, "42-history-pinned-link");
    await expectAccessible(page, "main");
    await page.reload();
    await waitForRows(page);
    await expect(banner).toContainText("2 rows differ from the current data.");
    await banner.getByRole("button", { name: "Show the current data" }).click();
    await expect(banner).toBeHidden();
    await expect.poll(() => visitorsOf(page, "B")).toBe("21");

    // a field dropped since: the pinned version still shows it with its values, today's table not
    await api(request, "datastore_create", { resource_id: id, fields: [{ id: "code", type: "text" }, { id: "visitors", type: "int" }], delete_fields: true });
    await page.goto(pinned);
    await waitForRows(page);
    expect(await columnTexts(page, "city")).toEqual(["Oslo", "Rome", "Lima"]);
    await banner.getByRole("button", { name: "Show the current data" }).click();
    await expect(banner).toBeHidden();
    await expect.poll(() => visitorsOf(page, "B")).toBe("21");
    await expect(columnTexts(page, "city")).rejects.toThrow(/no column city/);

    // a moment before the table existed: the API's reason, and still the way back
    await page.goto(`/?resource_id=${encodeURIComponent(id)}&as_of=2000-01-01T00:00:00Z`);
    await expect(page.getByRole("main").getByRole("alert")).toContainText(/before the resource existed/);
    await banner.getByRole("button", { name: "Show the current data" }).click();
    await waitForRows(page);
    await expect(page).not.toHaveURL(/as_of=/);
  } finally {
    await api(request, "resource_delete", { id });
  }
});
