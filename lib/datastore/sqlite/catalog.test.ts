// A read worker's resource lookup (mustGetForRead): the row is read in every snapshot, and
// decoded again only when any of it changed, a change that leaves the version alone included.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DatastoreError } from "../errors";
import { openEngine } from "../open";
import { mustGet, mustGetForRead } from "./catalog";
import { openReader, type Conn } from "./connection";
import type { SqliteEngine } from "./engine";

describe("mustGetForRead", () => {
  let engine: SqliteEngine;
  let reader: Conn;

  beforeAll(async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "catalog-")), "c.db");
    engine = (await openEngine({ file, readWorkers: 0 })) as SqliteEngine;
    await engine.createResource({ id: "r", name: "r", description: "", private: false }, [{ id: "a", type: "int4" }]);
    reader = openReader(file, { queryTimeoutMs: 1000, countBudgetMs: 100 });
  });

  afterAll(async () => {
    reader?.db.close();
    await engine?.close();
  });

  it("answers what mustGet answers, decoded once while the row is unchanged", () => {
    const first = mustGetForRead(reader, "r");
    const { aliases, ...rest } = mustGet(reader, "r");
    expect(first).toMatchObject(rest);
    expect(aliases).toEqual([]);
    expect(mustGetForRead(reader, "r")).toBe(first);
  });

  it("decodes again after any change to the row: rows written, or indexes set", async () => {
    const before = mustGetForRead(reader, "r");
    await engine.write("r", [{ a: 1 }], "insert");
    const written = mustGetForRead(reader, "r");
    expect(written).not.toBe(before);
    expect(written.rowCount).toBe(1);
    await engine.setIndexes("r", [["a"]]);
    const indexed = mustGetForRead(reader, "r");
    expect(indexed.version).toBe(written.version);
    expect(indexed.indexes).toEqual([["a"]]);
  });

  it("is 404 for an unknown resource, or one whose table was dropped", async () => {
    expect(() => mustGetForRead(reader, "nope")).toThrow(DatastoreError);
    await engine.dropTable("r");
    expect(() => mustGetForRead(reader, "r")).toThrow('Resource "r" was not found.');
  });
});
