import { describe, expect, it } from "vitest";
import type { DatastoreField } from "@/lib/api-client";
import { detectCoordinates, labelField, nameWords, numericFields, resolveCoordinates } from "./detect";

const f = (id: string, type = "float8", info?: Record<string, unknown>): DatastoreField => ({ id, type, ...(info ? { info } : {}) });

describe("detectCoordinates", () => {
  it("finds latitude and longitude by name, in any case", () => {
    expect(detectCoordinates([f("name", "text"), f("latitude"), f("longitude")])).toEqual({ lat: "latitude", lon: "longitude" });
    expect(detectCoordinates([f("LAT"), f("Lng")])).toEqual({ lat: "LAT", lon: "Lng" });
    expect(detectCoordinates([f("lat"), f("long")])).toEqual({ lat: "lat", lon: "long" });
    expect(detectCoordinates([f("Lat"), f("Lon")])).toEqual({ lat: "Lat", lon: "Lon" });
  });

  it("reads a word of a longer name, pairing names alike", () => {
    const fields = [f("dest_latitude"), f("origin_latitude"), f("origin_longitude"), f("dest_longitude")];
    expect(detectCoordinates(fields)).toEqual({ lat: "dest_latitude", lon: "dest_longitude" });
    expect(detectCoordinates([f("startLat"), f("startLng")])).toEqual({ lat: "startLat", lon: "startLng" });
  });

  it("prefers the plain names to longer ones", () => {
    expect(detectCoordinates([f("origin_lat"), f("origin_lon"), f("latitude"), f("longitude")])).toEqual({ lat: "latitude", lon: "longitude" });
  });

  it("takes the data dictionary's info.geo first, then its label", () => {
    const declared = [f("latitude"), f("longitude"), f("y", "float8", { geo: "latitude" }), f("x", "numeric", { geo: "Longitude" })];
    expect(detectCoordinates(declared)).toEqual({ lat: "y", lon: "x" });
    expect(detectCoordinates([f("a", "float8", { label: "Latitude" }), f("b", "float8", { label: "Longitude (°)" })])).toEqual({ lat: "a", lon: "b" });
    // one declared, the other by name
    expect(detectCoordinates([f("y", "float8", { geo: "latitude" }), f("lon")])).toEqual({ lat: "y", lon: "lon" });
  });

  it("ignores fields that are not numbers, and words that only contain the names", () => {
    expect(detectCoordinates([f("latitude", "text"), f("longitude", "text")])).toEqual({ lat: null, lon: null });
    expect(detectCoordinates([f("longest"), f("lateness"), f("plateau")])).toEqual({ lat: null, lon: null });
    expect(detectCoordinates([f("lat_long")])).toEqual({ lat: null, lon: null });
    expect(detectCoordinates([f("latitude")])).toEqual({ lat: "latitude", lon: null });
  });
});

describe("resolveCoordinates", () => {
  const fields = [f("latitude"), f("longitude"), f("y"), f("x"), f("city", "text")];
  it("lets the URL choose number fields, and falls back to detection otherwise", () => {
    expect(resolveCoordinates(fields, { lat: "y", lon: "x" })).toMatchObject({ lat: "y", lon: "x" });
    expect(resolveCoordinates(fields, { lat: "city", lon: "nope" })).toMatchObject({ lat: "latitude", lon: "longitude" });
    expect(resolveCoordinates(fields, { lat: null, lon: "x" })).toMatchObject({ lat: "latitude", lon: "x" });
  });
});

describe("helpers", () => {
  it("splits names into words", () => {
    expect(nameWords("origin_latitude")).toEqual(["origin", "latitude"]);
    expect(nameWords("startLat")).toEqual(["start", "lat"]);
    expect(nameWords("Latitude (deg)")).toEqual(["latitude", "deg"]);
  });

  it("lists number fields without _id", () => {
    expect(numericFields([f("_id", "int"), f("a", "int4"), f("b", "text"), f("c", "numeric")]).map((x) => x.id)).toEqual(["a", "c"]);
  });

  it("picks a name-like text field for labels", () => {
    expect(labelField([f("iata", "text"), f("name", "text"), f("city", "text")])).toBe("name");
    expect(labelField([f("origin", "text"), f("origin_name", "text")])).toBe("origin_name");
    expect(labelField([f("zip_code", "text"), f("city", "text")])).toBe("zip_code");
    expect(labelField([f("latitude")])).toBeNull();
  });
});
