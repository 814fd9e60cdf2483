// The explorer in the reader's language: a French browser gets French words and French numbers,
// the language menu switches to German at once, and a reload keeps German (the menu's cookie).
import { expect, test } from "./helpers/test";
import { createToken, waitForRows } from "./helpers/explorer";

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
  // every copy of it in the head (Next commits the page's metadata again after the layout's)
  await expect
    .poll(() => page.locator('head meta[name="description"]').evaluateAll((metas) => metas.map((m) => m.getAttribute("content"))))
    .toEqual(expect.arrayContaining([expect.stringMatching(/^Parcourir, rechercher et filtrer des tables/)]));
  await expect
    .poll(() => page.locator('meta[name="description"]').evaluateAll((metas) => metas.filter((m) => !m.getAttribute("content")?.startsWith("Parcourir")).length))
    .toBe(0);
});

test("the upload's own failures: the connection lost while sending, the import ended without an answer", async ({ page, request }) => {
  const token = await createToken(request, "write");
  await page.goto("/");
  const whoami = page.waitForResponse((r) => r.url().endsWith("/api/action/datastore_whoami") && r.ok());
  await page.getByLabel("Jeton", { exact: true }).fill(token);
  await page.getByRole("button", { name: "Utiliser le jeton" }).click();
  await whoami;
  await page.getByRole("button", { name: "Téléverser des données" }).click();
  const dialog = page.getByRole("dialog", { name: "Téléverser des données" });
  const file = { name: "villes.csv", mimeType: "text/csv", buffer: Buffer.from("ville,habitants\nLyon,522250\n") };

  // the request fails in the browser (no answer): the words are the explorer's, in French
  await page.route(/\/api\/upload\?/, (route) => route.abort("connectionreset"));
  await dialog.getByLabel("Fichier").setInputFiles(file);
  await expect(dialog.getByRole("alert")).toContainText("La connexion au serveur a été perdue pendant l’envoi du fichier.");
  await expect(dialog.getByRole("alert")).toContainText("Rien n’a été écrit. Choisissez un autre fichier.");

  // sent for real; the import's stream then ends after one progress line
  await page.unroute(/\/api\/upload\?/);
  await page.route(/\/api\/upload\/[^/]+\/import$/, (route) =>
    route.fulfill({
      contentType: "application/x-ndjson",
      body: `${JSON.stringify({ progress: { phase: "loading", rows: 1, fraction: 1, rows_per_second: 1, seconds_left: 0 } })}\n`,
    }),
  );
  await dialog.getByLabel("Fichier").setInputFiles(file);
  await dialog.getByRole("button", { name: "Créer la ressource" }).click();
  await expect(dialog.getByRole("alert")).toContainText("Le serveur a terminé l’import sans donner de réponse.");
});
