// The table for people: numbers and dates in the reader's locale (the stored value in the
// tooltip and in the record view), headers from the data dictionary (label, with the field id,
// type in words and notes as the header's description), and the record view in the URL.
import { expect, test } from "./helpers/test";
import { apiSearch, columnTexts, dataRows, recordsTable, shot, waitForRows } from "./helpers/explorer";

const cellOf = (page: import("@playwright/test").Page, row: number, column: number) => dataRows(page).nth(row).locator("td").nth(column);

test("numbers and dates in the reader's locale (en-US), the stored value in the tooltip", async ({ page, request }) => {
  await page.goto("/?resource_id=movies&limit=10");
  await waitForRows(page);
  const api = await apiSearch(request, { resource_id: "movies", limit: 10 });
  const first = api.records[0] as { "Worldwide Gross": number; "Release Date": string; "IMDB Rating": number };
  expect(first["Worldwide Gross"]).toBeGreaterThan(9999);

  const grosses = await columnTexts(page, "Worldwide Gross");
  expect(grosses[0]).toBe(first["Worldwide Gross"].toLocaleString("en-US"));
  // a thousands separator, as people read amounts
  expect(grosses.filter((g) => /^\d{1,3}(,\d{3})+$/.test(g)).length).toBeGreaterThan(0);
  const header = (await recordsTable(page).locator("thead th").evaluateAll((ths) => ths.map((th) => th.getAttribute("data-field")))).indexOf(
    "Worldwide Gross",
  );
  await expect(cellOf(page, 0, header).locator(`[title="${first["Worldwide Gross"]}"]`)).toBeVisible();

  // dates: "Jun 12, 1998", the ISO date in the tooltip
  const dates = await columnTexts(page, "Release Date");
  expect(dates[0]).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
  expect(dates[0]).toContain(first["Release Date"].slice(0, 4));
  await expect(recordsTable(page).locator(`[title="${first["Release Date"]}"]`).first()).toBeVisible();

  // a record number is not an amount: `_id` stays as stored
  await page.goto("/?resource_id=flights-20k&offset=12000&limit=10");
  await waitForRows(page);
  expect((await columnTexts(page, "_id"))[0]).toBe("12001");
  expect((await columnTexts(page, "Departure"))[0]).toMatch(/^[A-Z][a-z]{2} \d{1,2}, 2001, \d{1,2}:\d{2}\s[AP]M$/);
  await shot(page, "74-table-locale-en");
});

test.describe("in German", () => {
  test.use({ locale: "de-DE" });

  test("the same table reads 146.083 and 12.06.1998", async ({ page, request }) => {
    await page.goto("/?resource_id=movies&limit=10");
    await waitForRows(page);
    const first = (await apiSearch(request, { resource_id: "movies", limit: 1 })).records[0] as { "Worldwide Gross": number; "Release Date": string };
    expect((await columnTexts(page, "Worldwide Gross"))[0]).toBe(first["Worldwide Gross"].toLocaleString("de-DE"));
    const [y, m, d] = first["Release Date"].split("-");
    expect((await columnTexts(page, "Release Date"))[0]).toBe(`${d}.${m}.${y}`);
    const ratings = await columnTexts(page, "IMDB Rating");
    expect(ratings.some((r) => /^\d,\d$/.test(r))).toBe(true);
    await shot(page, "75-table-locale-de");
  });
});

test("headers from the data dictionary: the label shown, the id, type and notes described, sorting by the id", async ({ page }) => {
  await page.goto("/?resource_id=airports&limit=10");
  await waitForRows(page);
  const iata = page.getByRole("columnheader", { name: "IATA code", exact: true });
  await expect(iata).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "Airport", exact: true })).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "city", exact: true })).toBeVisible();
  const button = iata.getByRole("button");
  await expect(button).toHaveAccessibleDescription(
    "iata, text. The airport's three-letter code from the International Air Transport Association.",
  );
  await expect(button).toHaveAttribute("title", /^IATA code \(iata\): text\. The airport's three-letter code/);
  await expect(page.getByRole("columnheader", { name: "latitude", exact: true }).getByRole("button")).toHaveAccessibleDescription("number.");

  // sorting writes the field id
  await button.click();
  await expect(page).toHaveURL(/sort=iata(&|$)/);
  await expect(iata).toHaveAttribute("aria-sort", "ascending");

  // the column chooser names each column as its header does, with the id and type
  await page.getByRole("button", { name: "Columns" }).click();
  const chooser = page.getByRole("dialog", { name: "Columns" });
  await expect(chooser.getByRole("checkbox", { name: "IATA code iata · text" })).toBeChecked();
  await expect(chooser.getByRole("checkbox", { name: "latitude number" })).toBeChecked();
  await shot(page, "76-columns-dictionary");
  await chooser.getByRole("checkbox", { name: "Airport name · text" }).uncheck();
  await chooser.getByRole("button", { name: "Done" }).click();
  await expect(page).toHaveURL(/fields=_id%2Ciata%2Ccity/);
  await expect(page.getByRole("columnheader", { name: "Airport", exact: true })).toHaveCount(0);

  // flights: notes on two fields, none on the others
  await page.goto("/?resource_id=flights-20k&limit=10");
  await waitForRows(page);
  await expect(page.getByRole("columnheader", { name: "Delay (min)", exact: true }).getByRole("button")).toHaveAccessibleDescription(
    /^delay, whole number\. Minutes between the scheduled and the actual departure/,
  );
  await expect(page.getByRole("columnheader", { name: "Departure", exact: true }).getByRole("button")).toHaveAccessibleDescription(
    "date, date and time.",
  );
  await shot(page, "77-headers-dictionary");
});

test("the record view has its URL: open a row, reload, a record not on the page, Close", async ({ page, request }) => {
  await page.goto("/?resource_id=flights-20k&limit=25&offset=25");
  await waitForRows(page);
  const id = (await columnTexts(page, "_id"))[3];
  await dataRows(page).nth(3).click();
  const dialog = page.getByRole("dialog", { name: `Record ${id}` });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`[?&]record=${id}(&|$)`));
  await expect(page).toHaveURL(/offset=25/);

  // the dictionary and the stored values: label, id and type in words, notes; raw value first
  const api = (await apiSearch(request, { resource_id: "flights-20k", filters: { _id: Number(id) }, limit: 1 })).records[0];
  const departure = dialog.getByRole("term").filter({ hasText: /^Departure/ });
  await expect(departure).toContainText("date · date and time");
  await expect(dialog.getByRole("term").filter({ hasText: "Delay (min)" })).toContainText("Minutes between the scheduled and the actual departure");
  await expect(dialog.getByRole("definition").filter({ hasText: String(api.date) })).toContainText(/\(\w{3} \d{1,2}, 2001, .*\)/);
  await shot(page, "78-record-view");

  // reload: the same record
  const url = page.url();
  await page.reload();
  await expect(page.getByRole("dialog", { name: `Record ${id}` })).toBeVisible();
  await expect(page.getByRole("dialog").getByRole("definition").filter({ hasText: String(api.date) })).toBeVisible();
  expect(page.url()).toBe(url);

  // Close clears it from the URL
  await page.getByRole("dialog").getByRole("button", { name: "Close" }).click();
  await expect(page.getByRole("dialog")).toBeHidden();
  await expect(page).not.toHaveURL(/record=/);
  await expect(page).toHaveURL(/offset=25/);

  // a record that is not on the page (page 1 shows 1 to 25) opens from its link
  await page.goto("/?resource_id=flights-20k&limit=25&record=19999");
  const far = page.getByRole("dialog", { name: "Record 19999" });
  await expect(far).toBeVisible();
  const farApi = (await apiSearch(request, { resource_id: "flights-20k", filters: { _id: 19999 }, limit: 1 })).records[0];
  await expect(far.getByRole("definition").filter({ hasText: String(farApi.origin) }).first()).toBeVisible();
  await expect(far.getByRole("term").filter({ hasText: "Distance (miles)" })).toContainText("distance · whole number");
  await page.keyboard.press("Escape");
  await expect(far).toBeHidden();
  await expect(page).not.toHaveURL(/record=/);
});
