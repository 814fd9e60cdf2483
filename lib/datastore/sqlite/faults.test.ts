// SQLite-specific failures inside transactions: a full disk makes SQLite roll the whole
// transaction back itself, and another process's write lock must not hold up a read.
import Database from "better-sqlite3";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { TokenStore } from "../../auth/tokens";
import type { DatastoreEngine } from "../engine";
import { DatastoreError } from "../errors";
import { openEngine } from "../open";
import { limitPages } from "./test-support";

let engine: DatastoreEngine;
let file: string;
beforeEach(async () => {
  file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "faults-")), "e.db");
  engine = await openEngine({ file, readWorkers: 0 });
});
afterEach(async () => {
  await engine.close();
});
const meta = (id: string) => ({ id, name: id, description: "", private: false });

it("a full disk inside a nested transaction is reported as full, and nothing is written", async () => {
  await engine.createResource(meta("r"), [{ id: "t", type: "text" }]);
  limitPages(engine, 5);
  let err: unknown;
  try {
    await engine.transaction(async (tx) => {
      await tx.transaction(async (inner) => {
        await inner.write("r", Array.from({ length: 2000 }, (_, i) => ({ t: "x".repeat(500) + i })), "insert");
      });
    });
  } catch (e) {
    err = e;
  } finally {
    limitPages(engine, null);
  }
  expect(err).toBeInstanceOf(DatastoreError);
  expect((err as DatastoreError).details).toEqual({ database: ["the database is full; nothing was written"] });
  expect((await engine.getResource("r"))!.rowCount).toBe(0);
  await engine.write("r", [{ t: "after" }], "insert"); // the connection is usable again
  expect((await engine.getResource("r"))!.rowCount).toBe(1);
});

it("recording a token's use does not wait while another process holds the write lock", async () => {
  const tokens = new TokenStore(engine.tokens);
  const { token } = await tokens.create("reader", "read");
  const importer = new Database(file); // as `npm run import` would, for the length of its import
  importer.exec("BEGIN IMMEDIATE");
  try {
    const started = Date.now();
    expect((await tokens.authenticate(`Bearer ${token}`)).scope).toBe("read");
    expect(Date.now() - started).toBeLessThan(5_000); // the busy wait is 10 s: anything under it did not wait
  } finally {
    importer.exec("ROLLBACK");
    importer.close();
  }
});
