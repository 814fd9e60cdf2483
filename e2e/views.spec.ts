// Saved views: a write token saves what is on screen (Save view: Name, Description), finds it
// under Views and on the landing page, and opens it at its short address /v/<id>; the view shows
// alone at /embed/v/<id>, framed by an origin DATASTORE_EMBED_ORIGINS allows (playwright.config.ts
// sets it) and refused by one it does not, while the explorer itself refuses every frame.
import { test as unchecked, type APIRequestContext, type Page } from "@playwright/test";
import fs from "node:fs";
import { expect, test } from "./helpers/test";
import { ADMIN_TOKEN, columnTexts, createToken, recordsTable, useToken, waitForRows } from "./helpers/explorer";
import { axe } from "./helpers/axe";

const ALLOWED = "http://embed-allowed.test";
const REFUSED = "http://embed-refused.test";

// The host pages are "public" sites (the test answers them) framing a server on 127.0.0.1, which
// Chromium's Local Network Access checks would block before any header is read: off here, so
// what allows or refuses a frame is the server's frame-ancestors alone, as between two public sites.
const executablePath = process.env.CHROMIUM_PATH ?? ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((p) => fs.existsSync(p));
test.use({ launchOptions: { executablePath, args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-features=LocalNetworkAccessChecks"] } });
unchecked.use({ launchOptions: { executablePath, args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-features=LocalNetworkAccessChecks"] } });

async function createBooks(request: APIRequestContext, name: string): Promise<string> {
  const res = await request.post("/api/action/datastore_create", {
    headers: { Authorization: ADMIN_TOKEN },
    data: {
      resource: { name, description: "Made by the saved-views journey" },
      fields: [
        { id: "title", type: "text" },
        { id: "author", type: "text" },
        { id: "pages", type: "int" },
      ],
      records: [
        { title: "War and Peace", author: "Tolstoy", pages: 1225 },
        { title: "Emma", author: "Austen", pages: 474 },
        { title: "Ulysses", author: "Joyce", pages: 730 },
        { title: "Anna Karenina", author: "Tolstoy", pages: 864 },
      ],
    },
  });
  expect(res.ok()).toBe(true);
  return (await res.json()).result.resource_id as string;
}

async function expectAccessible(page: Page, state: string) {
  const results = await axe(page).analyze();
  const report = results.violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => n.target.join(" ")).join("\n  ")}`);
  expect(report, `axe violations in ${state}`).toEqual([]);
}

/** A page of another origin (served by the test itself) that frames `src`. */
async function framedBy(page: Page, origin: string, src: string) {
  await page.route(`${origin}/**`, (route) =>
    route.fulfill({ contentType: "text/html", body: `<!doctype html><title>Host</title><h1>Host page</h1><iframe src="${src}" title="Embedded view" width="800" height="500"></iframe>` }),
  );
  await page.goto(`${origin}/host`);
}

const SAVED_TITLES = ["War and Peace", "Anna Karenina", "Emma"];

test("save a view with a write token, list it under Views, open /v/<id>, embed /embed/v/<id>", async ({ page, request, baseURL }) => {
  const stamp = Date.now();
  const name = `Long books ${stamp}`;
  const id = await createBooks(request, `Views books ${stamp}`);
  const token = await createToken(request, "write");

  const filters = encodeURIComponent(JSON.stringify({ author: ["Tolstoy", "Austen"] }));
  await page.goto(`/?resource_id=${id}&filters=${filters}&sort=pages+desc&fields=title,pages`);
  await waitForRows(page);
  // anonymous: nothing to save with
  await expect(page.getByRole("button", { name: "Save view" })).toHaveCount(0);
  await useToken(page, token);

  await page.getByRole("button", { name: "Save view" }).click();
  const dialog = page.getByRole("dialog", { name: "Save view" });
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByLabel("Description").fill("Tolstoy and Austen, longest first");
  await expectAccessible(page, "the Save view dialog");
  await dialog.getByRole("button", { name: "Save", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: "Saved as" })).toContainText(name);
  await expect(page.getByText(`Saved view: ${name}`)).toBeVisible();

  // Views lists it by name; it opens the explorer on it
  await page.goto(`/?resource_id=${id}`);
  await waitForRows(page);
  await page.getByRole("button", { name: /^Views/ }).click();
  await page.getByRole("list", { name: "Saved views" }).getByRole("link", { name: new RegExp(name) }).click();
  await expect(page).toHaveURL(/\/\?resource_id=/);
  await waitForRows(page);
  expect(await columnTexts(page, "title")).toEqual(SAVED_TITLES);
  await expect(recordsTable(page).getByRole("columnheader", { name: "author" })).toHaveCount(0);
  await expect(page.getByText(`Saved view: ${name}`)).toBeVisible();

  // its short address, from the API's answer
  const listed = await request.post("/api/action/datastore_view_list", { data: { resource_id: id } });
  const views = (await listed.json()).result as { id: string; name: string }[];
  const viewId = views.find((v) => v.name === name)!.id;
  await page.goto(`/v/${viewId}`);
  await expect(page).toHaveURL(/\/\?resource_id=/);
  await waitForRows(page);
  expect(await columnTexts(page, "title")).toEqual(SAVED_TITLES);

  // the landing page shows it beside the resources
  await page.goto("/");
  const saved = page.getByRole("region", { name: "Saved views" });
  await expect(saved.getByRole("link", { name: new RegExp(name) })).toBeVisible();
  await expectAccessible(page, "the landing page with saved views");
  await saved.getByRole("link", { name: new RegExp(name) }).click();
  await waitForRows(page);
  expect(await columnTexts(page, "title")).toEqual(SAVED_TITLES);

  // the embed: the table alone, its name, a link back, no explorer around it
  await page.goto(`/embed/v/${viewId}`);
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await waitForRows(page);
  expect(await columnTexts(page, "title")).toEqual(SAVED_TITLES);
  await expect(page.getByRole("link", { name: "Open in Datastore Explorer" })).toHaveAttribute("href", `/v/${viewId}`);
  await expect(page.getByRole("button", { name: "Save view" })).toHaveCount(0);
  await expect(page.getByLabel("Token")).toHaveCount(0);
  await expectAccessible(page, "the embed page");

  // framed by an origin DATASTORE_EMBED_ORIGINS allows
  await framedBy(page, ALLOWED, `${baseURL}/embed/v/${viewId}`);
  const frame = page.frameLocator("iframe");
  await expect(frame.getByRole("heading", { name })).toBeVisible();
  await expect(frame.locator("tbody tr[data-index]")).toHaveCount(3);

  // /embed? takes the explorer's own parameters
  await page.goto(`/embed?resource_id=${id}&q=Ulysses&fields=title`);
  await waitForRows(page);
  expect(await columnTexts(page, "title")).toEqual(["Ulysses"]);
});

// Not the checked `test`: the browser logs each refused frame as a console error, on purpose here.
unchecked("an embed is refused in an origin DATASTORE_EMBED_ORIGINS does not name, and the explorer in every origin", async ({ page, request, baseURL }) => {
  const id = await createBooks(request, `Views refused ${Date.now()}`);
  const embed = `${baseURL}/embed?resource_id=${id}`;
  for (const [origin, src] of [
    [REFUSED, embed],
    [ALLOWED, `${baseURL}/?resource_id=${id}`],
  ]) {
    await framedBy(page, origin, src);
    // a refused frame never shows the page: Chromium puts its own error page there instead
    await expect.poll(() => page.frames()[1]?.url(), { message: `${src} framed by ${origin}` }).toMatch(/^chrome-error:/);
  }
  const res = await request.get(`/embed/v/x`, { maxRedirects: 0 });
  expect(res.status()).toBe(307);
  const page2 = await request.get(embed);
  expect(page2.headers()["content-security-policy"]).toContain(`frame-ancestors 'self' ${ALLOWED}`);
  expect(page2.headers()["x-frame-options"]).toBeUndefined();
  const explorer = await request.get(`/?resource_id=${id}`);
  expect(explorer.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(explorer.headers()["x-frame-options"]).toBe("DENY");
});
