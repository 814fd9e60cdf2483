// A private resource: without a token the page says what to do; with one it shows the rows.
// The token travels only in the Authorization header, never in a URL.
import type { Request } from "@playwright/test";
import { expect, test } from "./helpers/test";
import { ADMIN_TOKEN, dataRows, pickResource, shot, waitForRows } from "./helpers/explorer";

test("private resource without and with a token", async ({ page }) => {
  const requests: Request[] = [];
  page.on("request", (r) => requests.push(r));

  await page.goto("/?resource_id=birdstrikes");
  const alert = page.getByRole("alert").filter({ hasText: "is private" });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText("Token");
  await expect(page.getByRole("table")).toHaveCount(0);
  await shot(page, "07-private-without-token");

  // the hint leads to the Token box
  await alert.getByRole("button", { name: "Enter a token" }).click();
  await expect(page.getByLabel("Token")).toBeFocused();

  await page.getByLabel("Token").fill(ADMIN_TOKEN);
  await page.getByRole("button", { name: "Use token" }).click();
  await waitForRows(page);
  await expect(page.getByText("Private", { exact: true }).first()).toBeVisible();
  await expect(page.getByText("A token is in use")).toBeVisible();
  await shot(page, "08-private-with-token");

  // listed in the picker, marked private
  const box = page.getByLabel("Resource", { exact: true });
  await box.click();
  await box.fill("bird");
  await expect(page.getByRole("option", { name: /Private/ })).toBeVisible();
  await page.keyboard.press("Escape");

  // kept for the session
  await page.reload();
  await waitForRows(page);

  // the token went only into headers
  const withAuth = requests.filter((r) => r.headers()["authorization"] === ADMIN_TOKEN);
  expect(withAuth.length).toBeGreaterThan(0);
  for (const r of requests) expect(r.url()).not.toContain(ADMIN_TOKEN);
  expect(page.url()).not.toContain(ADMIN_TOKEN);

  await page.getByRole("button", { name: "Forget token" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "is private" })).toBeVisible();
  await expect(dataRows(page)).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("alert").filter({ hasText: "is private" })).toBeVisible();
});

test("a remembered token survives a new tab; a session token does not", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto("/");
  await page.getByLabel("Token").fill(ADMIN_TOKEN);
  await page.getByRole("button", { name: "Use token" }).click();
  await pickResource(page, "bird", /Bird strikes/);
  await waitForRows(page);

  const second = await context.newPage();
  await second.goto(page.url());
  await expect(second.getByRole("alert").filter({ hasText: "is private" })).toBeVisible();

  await page.getByLabel("Token").fill(ADMIN_TOKEN);
  await page.getByLabel("Remember on this device").check();
  await page.getByRole("button", { name: "Use token" }).click();
  await expect(page.getByText("remembered on this device")).toBeVisible();
  const third = await context.newPage();
  await third.goto(page.url());
  await waitForRows(third);
  await third.getByRole("button", { name: "Forget token" }).click();
  await expect(third.getByRole("alert").filter({ hasText: "is private" })).toBeVisible();
  await context.close();
});
