// The Map tab: the matching rows placed by their coordinates. Few rows are points (a click opens
// the record), many are a server-side grid (a click on a cell zooms in with two range chips);
// the URL holds it all, so a reload draws the same map; a table says it in words.
import type { Page } from "@playwright/test";
import { expect, test } from "./helpers/test";
import { shot } from "./helpers/explorer";
import { axe } from "./helpers/axe";

function figure(page: Page) {
  return page.getByRole("tabpanel").locator("figure");
}

function dots(page: Page) {
  return page.locator("[data-map-points] circle");
}

async function mapTable(page: Page, summary: string) {
  await page.getByText(summary).click();
  return page.getByRole("tabpanel").getByRole("table");
}

test("airports: every airport a point; a click opens its record; a reload draws the same map", async ({ page }) => {
  await page.goto("/?resource_id=airports");
  await page.getByRole("tab", { name: "Map" }).click();
  await expect(page).toHaveURL(/view=map/);
  await expect(page.getByLabel("Latitude field")).toHaveValue("latitude");
  await expect(page.getByLabel("Longitude field")).toHaveValue("longitude");
  await expect(figure(page).locator("figcaption")).toContainText("Showing 3,376 rows by “latitude” and “longitude”.");
  await expect(dots(page)).toHaveCount(3376);
  // the map fits most airports: a few far out in the Pacific are left out, and said so
  const outside = figure(page).getByText(/\d+ rows? lies? outside this view/);
  const left = Number(/(\d+) rows?/.exec((await outside.textContent())!)![1]);
  expect(left).toBeGreaterThan(0);
  expect(left).toBeLessThan(20);
  // the offline outlines: land, countries and, for a map of the US, states
  await expect(page.locator("[data-map-points] g[aria-label='geo'] path")).toHaveCount(3);
  await shot(page, "60-map-airports");
  await figure(page).getByRole("button", { name: "Show every point" }).click();
  await expect(outside).toBeHidden();
  await figure(page).getByRole("button", { name: "Fit the map to most points" }).click();
  await expect(outside).toBeVisible();

  // the pointer shows a tip; a click opens what it names
  await figure(page).scrollIntoViewIfNeeded();
  const box = (await dots(page).nth(1000).boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const tip = page.locator("[data-map-points] g[aria-label='tip']");
  await expect(tip).toContainText("Click to open the record");
  const name = (await tip.locator("tspan").first().textContent())!;
  await shot(page, "61-map-airports-tip", { viewport: true });
  await page.mouse.down();
  await page.mouse.up();
  await expect(page).toHaveURL(/record=\d+/);
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText(name);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  const url = page.url();
  await page.goto(url);
  await expect(figure(page).locator("figcaption")).toContainText("Showing 3,376 rows");
  await expect(dots(page)).toHaveCount(3376);
  await expect(outside).toHaveText(`${left} rows lie outside this view.`);
  await expect(page.getByRole("tab", { name: "Map" })).toHaveAttribute("aria-selected", "true");
});

test("airports by keyboard: the points as a table, each with a button that opens its record", async ({ page }) => {
  await page.goto("/?resource_id=airports&view=map&q=portland");
  await expect(figure(page).locator("figcaption")).toContainText(/Showing \d+ rows/);
  const table = await mapTable(page, "Show the points as a table");
  const first = table.getByRole("button", { name: /^Open record \d+$/ }).first();
  const id = (await first.textContent())!.replace("Open record ", "");
  await first.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`record=${id}`));
  await expect(page.getByRole("dialog")).toBeVisible();
});

test("zipcodes: 42,049 rows drawn as cells; a cell zooms in with range chips; a reload keeps it", async ({ page }) => {
  await page.goto("/?resource_id=zipcodes");
  await expect(page.getByRole("table")).toHaveAttribute("aria-busy", "false");
  // The grid's speed is the bench's (scripts/bench-views.ts, map grid), never a timed test here:
  // on a loaded machine a clock would fail a map drawn right.
  await page.getByRole("tab", { name: "Map" }).click();
  await expect(dots(page).first()).toBeAttached();
  await expect(figure(page).locator("figcaption")).toContainText(/42,049 rows in [\d,]+ cells of 1°/);
  expect(await dots(page).count()).toBeGreaterThan(500);
  await shot(page, "62-map-zipcodes-cells");

  // the fullest cell, from the table: a zoom, as a click on the map does
  const table = await mapTable(page, "Show the cells as a table");
  const zoom = table.getByRole("button", { name: /^Zoom in to latitude/ }).first();
  const [, lat, lon] = /latitude (\S+) to \S+, longitude (\S+) to/.exec((await zoom.getAttribute("aria-label"))!)!;
  await zoom.click();
  await expect(page).toHaveURL(/filters=/);
  const filters = JSON.parse(new URL(page.url()).searchParams.get("filters")!);
  expect(filters).toEqual({ latitude: { gte: Number(lat), lte: Number(lat) + 1 }, longitude: { gte: Number(lon), lte: Number(lon) + 1 } });
  await expect(page.getByRole("button", { name: "Zoom out" })).toBeVisible();
  // a few hundred ZIP codes: points now
  await expect(figure(page).locator("figcaption")).toContainText(/Showing [\d,]+ rows/);
  await expect(dots(page).first()).toBeAttached();
  await shot(page, "63-map-zipcodes-zoomed");

  const url = page.url();
  await page.goto(url);
  await expect(figure(page).locator("figcaption")).toContainText(/Showing [\d,]+ rows/);
  await page.getByRole("button", { name: "Zoom out" }).click();
  await expect(figure(page).locator("figcaption")).toContainText(/42,049 rows in [\d,]+ cells/);
});

test("a cell on the map: a click zooms into it", async ({ page }) => {
  await page.goto("/?resource_id=zipcodes&view=map");
  await expect(figure(page).locator("figcaption")).toContainText(/cells of 1°/);
  // the biggest dot is the fullest cell
  await figure(page).scrollIntoViewIfNeeded();
  const radii = await dots(page).evaluateAll((cs) => cs.map((c) => Number(c.getAttribute("r"))));
  const box = (await dots(page).nth(radii.indexOf(Math.max(...radii))).boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await expect(page.locator("[data-map-points] g[aria-label='tip']")).toContainText("Click to zoom in");
  await page.mouse.down();
  await page.mouse.up();
  await expect(page).toHaveURL(/filters=.*latitude.*gte/);
});

test("fields chosen by hand: no coordinates found, two selects, the choice in the URL", async ({ page }) => {
  await page.goto("/?resource_id=seattle-weather&view=map");
  await expect(page.getByText("No latitude and longitude fields found")).toBeVisible();
  await page.getByLabel("Latitude field").selectOption("temp_max");
  await expect(page).toHaveURL(/lat=temp_max/);
  await page.getByLabel("Longitude field").selectOption("precipitation");
  await expect(page).toHaveURL(/lon=precipitation/);
  await expect(figure(page).locator("figcaption")).toContainText("by “temp_max” and “precipitation”");

  await page.goto("/?resource_id=airports&view=map&lat=longitude&lon=latitude");
  await expect(page.getByLabel("Latitude field")).toHaveValue("longitude");
  await expect(page.getByText("Some values are not coordinates")).toBeVisible();
});

test("axe: the Map tab", async ({ page }) => {
  await page.goto("/?resource_id=airports&view=map&q=portland");
  await expect(figure(page).locator("figcaption")).toContainText(/Showing \d+ rows/);
  await page.getByText("Show the points as a table").click();
  const results = await axe(page).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.help} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
});

test("web map tiles when the deployment sets DATASTORE_MAP_TILES: placed where the points are, credited", async ({ browser }) => {
  // the deployment's setting and its tile server, stood in for here (the journeys run offline);
  // the tile server's origin in the CSP is the unit tests' part
  const context = await browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  await page.route("**/api/explorer-config", (route) =>
    route.fulfill({ json: { map_tiles: "https://tiles.test/{z}/{x}/{y}.png", map_attribution: "© Test Tiles contributors" } }),
  );
  await page.route("https://tiles.test/**", (route) => {
    const [z, x, y] = new URL(route.request().url()).pathname.slice(1).replace(".png", "").split("/");
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256"><rect width="256" height="256" fill="#dbeafe" stroke="#93c5fd"/><text x="128" y="128" text-anchor="middle" font-size="20" fill="#1e3a8a">${z}/${x}/${y}</text></svg>`;
    return route.fulfill({ contentType: "image/svg+xml", body: svg });
  });
  await page.goto("/?resource_id=airports&view=map&q=seattle");
  await expect(page.getByRole("tabpanel").locator("figcaption")).toContainText(/Showing \d+ rows/);
  await expect(page.getByText("Map tiles: © Test Tiles contributors")).toBeVisible();
  const images = page.locator("[data-map-points] image");
  await expect(images.first()).toBeAttached();
  // no outlines in their place
  await expect(page.locator("[data-map-points] g[aria-label='geo']")).toHaveCount(0);

  // each point lies on the tile that holds its coordinates (slippy-map z/x/y)
  const placed = await page.evaluate(() => {
    const svg = document.querySelector("[data-map-points] svg")!;
    const tiles = [...svg.querySelectorAll("image")].map((im) => ({
      href: im.getAttribute("href")!,
      x: Number(im.getAttribute("x")),
      y: Number(im.getAttribute("y")),
      w: Number(im.getAttribute("width")),
      h: Number(im.getAttribute("height")),
      transform: im.getAttribute("transform"),
    }));
    const dots = [...svg.querySelectorAll("circle")].map((c) => ({ cx: Number(c.getAttribute("cx")), cy: Number(c.getAttribute("cy")) }));
    return { tiles, dots };
  });
  const rows = await page.getByRole("tabpanel").locator("details").evaluate((d: HTMLDetailsElement) => (d.open = true));
  expect(rows).toBe(true);
  const table = page.getByRole("tabpanel").getByRole("table");
  const lat = Number(await table.locator("tbody tr").first().locator("td").nth(1).textContent());
  const lon = Number(await table.locator("tbody tr").first().locator("td").nth(2).textContent());
  const z = Number(/tiles\.test\/(\d+)\//.exec(placed.tiles[0].href)![1]);
  const n = 2 ** z;
  const tx = Math.floor(((lon + 180) / 360) * n);
  const ty = Math.floor(((1 - Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360)) / Math.PI) / 2) * n);
  const tile = placed.tiles.find((t) => t.href === `https://tiles.test/${z}/${tx}/${ty}.png`)!;
  expect(tile, `tile ${z}/${tx}/${ty}`).toBeDefined();
  expect(placed.tiles.every((t) => Math.abs(t.w - placed.tiles[0].w) < 0.01)).toBe(true);
  // the first row's dot (the table lists the points in the map's order)
  const dot = placed.dots[0];
  expect(dot.cx).toBeGreaterThanOrEqual(tile.x - 0.5);
  expect(dot.cx).toBeLessThanOrEqual(tile.x + tile.w + 0.5);
  expect(dot.cy).toBeGreaterThanOrEqual(tile.y - 0.5);
  expect(dot.cy).toBeLessThanOrEqual(tile.y + tile.h + 0.5);
  await page.getByRole("tabpanel").locator("details summary").click();
  await shot(page, "64-map-tiles");
  await context.close();
});
