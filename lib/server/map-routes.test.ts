// The Map tab's two routes through the app's route table, as `npm start` serves them: the
// offline outlines (app/basemap/[name]) and the run-time settings (app/api/explorer-config).
// (keepObjects' renumbering is checked against topojson-client's own reading of both files.)
import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { feature } from "topojson-client";
import { dispatch } from "../test/routes";
import { keepObjects } from "../http/basemap";
import { securityHeaders } from "./security-headers";

describe("GET /basemap/{name}", () => {
  it("serves the world's land and countries, and the US states, to be cached", async () => {
    const res = await dispatch(new Request("http://localhost/basemap/world-110m"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("cache-control")).toMatch(/max-age=\d{6,}/);
    const world = await res.json();
    expect(world.type).toBe("Topology");
    expect(Object.keys(world.objects)).toEqual(["land", "countries"]);

    const us = await dispatch(new Request("http://localhost/basemap/us-10m"));
    const states = await us.json();
    expect(Object.keys(states.objects)).toEqual(["states"]);
    expect(states.objects.states.geometries).toHaveLength(53);
    // the counties' arcs are gone: a fifth of the file is left
    expect(Number(us.headers.get("content-length"))).toBeLessThan(150_000);

    const again = await dispatch(new Request("http://localhost/basemap/us-10m", { headers: { "if-none-match": us.headers.get("etag")! } }));
    expect(again.status).toBe(304);
  });

  it("serves nothing else", async () => {
    for (const name of ["airports", "..%2Fpackage", "world-110m.json", "zipcodes"]) {
      expect((await dispatch(new Request(`http://localhost/basemap/${name}`))).status).toBe(404);
    }
    expect((await dispatch(new Request("http://localhost/basemap/us-10m", { method: "POST" }))).status).toBe(404);
  });
});

const get = async () => (await dispatch(new Request("http://localhost/api/explorer-config"))).json();

afterEach(() => {
  delete process.env.DATASTORE_MAP_TILES;
  delete process.env.DATASTORE_MAP_ATTRIBUTION;
});

describe("GET /api/explorer-config", () => {
  it("says there are no tiles by default", async () => {
    expect(await get()).toEqual({ map_tiles: null, map_attribution: null });
  });

  it("passes a tile template and its attribution, and lets the pages load the tiles", async () => {
    process.env.DATASTORE_MAP_TILES = "https://tile.openstreetmap.org/{z}/{x}/{y}.png";
    process.env.DATASTORE_MAP_ATTRIBUTION = "© OpenStreetMap contributors";
    expect(await get()).toEqual({ map_tiles: "https://tile.openstreetmap.org/{z}/{x}/{y}.png", map_attribution: "© OpenStreetMap contributors" });
    const csp = new Map(securityHeaders(false)).get("Content-Security-Policy");
    expect(csp).toContain("img-src 'self' data: blob: https://tile.openstreetmap.org;");
  });

  it("ignores a template that is not an http(s) URL with {z}, {x} and {y}", async () => {
    for (const bad of ["tile.example/{z}/{x}/{y}.png", "https://tile.example/{z}/{x}.png", "javascript:alert(1)//{z}{x}{y}", "https://{s}.tile.example/{z}/{x}/{y}.png"]) {
      process.env.DATASTORE_MAP_TILES = bad;
      expect((await get()).map_tiles).toBeNull();
    }
  });
});

describe("keepObjects", () => {
  it("keeps the objects' shapes exactly, with only their arcs", () => {
    const us = JSON.parse(fs.readFileSync("node_modules/vega-datasets/data/us-10m.json", "utf8"));
    const states = keepObjects(us, ["states"]);
    expect(states.arcs.length).toBeLessThan(us.arcs.length / 3);
    expect(feature(states as never, states.objects.states as never)).toEqual(feature(us, us.objects.states));
  });
});
