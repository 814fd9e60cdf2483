import { describe, expect, it } from "vitest";
import { fitScale, frameExtent, frameHeight, latitudeOf, mercatorY, tilesFor, tileUrl, tileZoom } from "./mercator";

const US = { latMin: 18, latMax: 71, lonMin: -170, lonMax: -64 };

describe("mercator", () => {
  it("projects and inverts latitudes", () => {
    expect(mercatorY(0)).toBeCloseTo(0, 12);
    expect(latitudeOf(mercatorY(60))).toBeCloseTo(60, 9);
    // the web map's edge: y = π
    expect(latitudeOf(Math.PI)).toBeCloseTo(85.0511, 4);
  });

  it("fits the tighter side and keeps the centre", () => {
    const frame = { width: 1000, height: 400 };
    const k = fitScale(US, frame);
    expect(k).toBeCloseTo(Math.min(1000 / ((106 * Math.PI) / 180), 400 / (mercatorY(71) - mercatorY(18))), 9);
    const shown = frameExtent(US, frame);
    // the height is the tighter side here: latitudes fit exactly, longitudes widen
    expect(shown.latMin).toBeCloseTo(18, 9);
    expect(shown.latMax).toBeCloseTo(71, 9);
    expect(shown.lonMin).toBeLessThan(-170);
    expect((shown.lonMin + shown.lonMax) / 2).toBeCloseTo(-117, 9);
  });

  it("sizes the frame to the extent within bounds", () => {
    expect(frameHeight(US, 400)).toBe(Math.round((400 * (mercatorY(71) - mercatorY(18))) / ((106 * Math.PI) / 180)));
    expect(frameHeight({ latMin: 0, latMax: 1, lonMin: 0, lonMax: 100 }, 800)).toBe(260);
    expect(frameHeight({ latMin: 0, latMax: 80, lonMin: 0, lonMax: 1 }, 800)).toBe(520);
  });
});

describe("tiles", () => {
  it("picks the zoom whose tiles show nearest 256 pixels", () => {
    // the whole world 256 pixels wide is zoom 0; twice that, zoom 1
    expect(tileZoom(256 / (2 * Math.PI))).toBe(0);
    expect(tileZoom(512 / (2 * Math.PI))).toBe(1);
    expect(tileZoom(1e12)).toBe(19);
    expect(tileZoom(1)).toBe(0);
  });

  it("fills a template", () => {
    expect(tileUrl("https://tile.example/{z}/{x}/{y}.png", 3, 1, 2)).toBe("https://tile.example/3/1/2.png");
  });

  it("covers the frame with tiles of one size, centred on their own areas", () => {
    const frame = { width: 1024, height: 512 };
    const edge = latitudeOf(Math.PI);
    const world = { latMin: -edge, latMax: edge, lonMin: -180, lonMax: 180 };
    const { z, size, tiles } = tilesFor(world, frame, "{z}/{x}/{y}");
    // the height is the tighter side: the world is 512 pixels square, zoom 1, 2 × 2 tiles of 256
    // (and no tile twice, though the frame is wider than the world)
    expect(z).toBe(1);
    expect(tiles).toHaveLength(4);
    expect(size).toBeCloseTo(256, 6);
    expect(tiles[0]).toMatchObject({ x: 0, y: 0, url: "1/0/0", lon: -90 });
    expect(tiles[0].lat).toBeCloseTo(latitudeOf(Math.PI / 2), 9);

    const seattle = tilesFor({ latMin: 47.5, latMax: 47.75, lonMin: -122.45, lonMax: -122.2 }, { width: 800, height: 500 }, "{z}/{x}/{y}");
    expect(seattle.z).toBe(11);
    expect(seattle.size).toBeGreaterThan(181);
    expect(seattle.size).toBeLessThan(363);
    // a frame past −180° takes its western tiles from the east of the world
    const aleutians = tilesFor({ latMin: 50, latMax: 56, lonMin: -180, lonMax: -170 }, { width: 800, height: 400 }, "{z}/{x}/{y}");
    const west = aleutians.tiles.filter((t) => t.lon < -180);
    expect(west.length).toBeGreaterThan(0);
    expect(west.every((t) => t.x === 2 ** aleutians.z - 1)).toBe(true);
    // x of Seattle at zoom 11: floor((−122.3 + 180) / 360 · 2048) = 328
    expect(seattle.tiles.map((t) => t.x)).toContain(328);
  });
});
