import { describe, expect, it } from "vitest";
import { detailsChanges, draftFrom, readsResource } from "./details";
import { queryKeys } from "./queries";
import type { DatastoreField, Resource } from "./types";

const resource: Resource = { id: "r1", name: "Books", description: "Some books", private: false };
const fields: DatastoreField[] = [
  { id: "title", type: "text", info: { label: "Title", type_override: "text" } },
  { id: "year", type: "int4" },
];

describe("detailsChanges", () => {
  it("sends nothing when nothing changed", () => {
    expect(detailsChanges(resource, fields, draftFrom(resource, fields))).toEqual({ patch: {}, dictionary: [] });
  });

  it("sends only the resource keys that changed", () => {
    const draft = { ...draftFrom(resource, fields), name: "Great books", private: true };
    expect(detailsChanges(resource, fields, draft).patch).toEqual({ name: "Great books", private: true });
  });

  it("sends the changed fields' info with their other keys kept", () => {
    const draft = draftFrom(resource, fields);
    draft.dictionary.title = { label: "Book title", notes: "As printed" };
    expect(detailsChanges(resource, fields, draft).dictionary).toEqual([
      { id: "title", info: { label: "Book title", notes: "As printed", type_override: "text" } },
    ]);
  });

  it("leaves an emptied label out, and gives a field without info one", () => {
    const draft = draftFrom(resource, fields);
    draft.dictionary.title = { label: "", notes: "" };
    draft.dictionary.year = { label: "Year", notes: "" };
    expect(detailsChanges(resource, fields, draft).dictionary).toEqual([
      { id: "title", info: { type_override: "text" } },
      { id: "year", info: { label: "Year" } },
    ]);
  });
});

describe("readsResource", () => {
  const s = { token: null, epoch: 1 };
  const names = new Set(["r1", "books"]);
  it("finds the queries of a resource by id or alias, and no others", () => {
    expect(readsResource(queryKeys.info(s, "r1"), names)).toBe(true);
    expect(readsResource(queryKeys.resource(s, "books"), names)).toBe(true);
    expect(readsResource(queryKeys.valueCounts(s, { resource_id: "r1", field: "a", limit: 5 }), names)).toBe(true);
    expect(readsResource(queryKeys.info(s, "r2"), names)).toBe(false);
    expect(readsResource(queryKeys.resources(s, ""), names)).toBe(false);
    expect(readsResource(queryKeys.whoami(s), names)).toBe(false);
  });
});
