// The explorer in the reader's language: a French browser gets French words and French numbers,
// the language menu switches to German at once, and a reload keeps German (the menu's cookie).
import { expect, test } from "./helpers/test";
import { waitForRows } from "./helpers/explorer";

test.use({ locale: "fr-FR" });

test("French from the browser, German from the menu, kept on reload", async ({ page }) => {
  await page.goto("/?resource_id=flights-20k");
  await expect(page.locator("html")).toHaveAttribute("lang", "fr");
  await expect(page.getByLabel("Rechercher", { exact: true })).toBeVisible();
  await expect(page.getByRole("tab", { name: "Résumé" })).toBeVisible();
  await waitForRows(page);
  // French digit grouping (a narrow no-break space): 20 000, not 20,000
  await expect(page.getByText(/^20\u202f000 enregistrements au total$/)).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Pages" })).toContainText("1–100 sur 20\u202f000");

  await page.getByLabel("Langue").selectOption("de");
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.getByLabel("Suchen", { exact: true })).toBeVisible();
  await expect(page.getByText(/^20\.000 Datensätze insgesamt$/)).toBeVisible();

  await page.reload();
  await expect(page.getByLabel("Sprache")).toHaveValue("de");
  await expect(page.getByRole("tab", { name: "Übersicht" })).toBeVisible();
  await expect(page.getByText(/^20\.000 Datensätze insgesamt$/)).toBeVisible();
});

test("words built outside the components: the pivot's caption, a page title", async ({ page }) => {
  await page.goto("/?resource_id=flights-20k&view=pivot&rows=origin&columns=date:quarter&measure=avg:delay");
  await expect(page.getByRole("region", { name: "Moyenne de Delay (min) par origin et Trimestre de Departure" })).toBeVisible();

  await page.goto("/tokens");
  await expect(page).toHaveTitle("Jetons · Datastore Explorer");
});
