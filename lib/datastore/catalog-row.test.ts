import { describe, expect, it } from "vitest";
import { decodeCatalogRow, now, type CatalogRow } from "./catalog-row";

const row: CatalogRow = {
  id: "r1",
  table_name: "ds_1",
  name: "flights",
  description: "",
  private: 0,
  url_type: "datastore",
  fields: JSON.stringify([{ id: "a", type: "text", column: "c1" }, { id: "b", type: "int4", column: "c2", info: { label: "B" } }]),
  primary_key: '["a"]',
  indexes: '[["b"]]',
  import_indexes: "[]",
  learned_indexes: "[]",
  next_column: 3,
  row_count: 12,
  created: "2026-01-01T00:00:00",
  modified: "2026-01-02T00:00:00",
  active: 1,
  version: 4,
};

describe("decodeCatalogRow", () => {
  it("gives the resource, its fields without their columns, and each field's column", () => {
    const r = decodeCatalogRow(row, ["f"]);
    expect(r).toMatchObject({ id: "r1", private: false, active: true, primaryKey: ["a"], indexes: [["b"]], aliases: ["f"], rowCount: 12, table: "ds_1", nextColumn: 3, version: 4 });
    expect(r.fields).toEqual([{ id: "a", type: "text" }, { id: "b", type: "int4", info: { label: "B" } }]);
    expect(r.columns.get("b")).toEqual({ id: "b", type: "int4", column: "c2", info: { label: "B" } });
  });

  it("reads counts given as text (PostgreSQL's int8) as the same numbers", () => {
    expect(decodeCatalogRow({ ...row, row_count: "12", version: "4", private: 1 }, ["f"])).toEqual({ ...decodeCatalogRow(row, ["f"]), private: true });
  });

  it("stamps times to the second, without the zone", () => {
    expect(now()).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
  });
});
