import Database from "better-sqlite3";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { config } from "../../config";
import { DatastoreUnavailable } from "../errors";
import { openWriter } from "./connection";
import { checkDatabase, explainOpenError, scanPages } from "./health";
import { checksumFile } from "./test-support";

const openDatabase = (file: string) => openWriter(file, config).db;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "datastore-health-"));

/** A database with one table of `rows` rows of text, checkpointed into the main file. */
function makeDb(file: string, rows: number): void {
  const db = openDatabase(file);
  db.exec("CREATE TABLE t (x TEXT)");
  const insert = db.prepare("INSERT INTO t VALUES (?)");
  db.transaction(() => {
    for (let i = 0; i < rows; i++) insert.run(`row ${i} ${"x".repeat(200)}`);
  })();
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
}

describe("checkDatabase", () => {
  it("passes a sound, writable database and leaves it unchanged", () => {
    const file = path.join(dir, "ok.db");
    makeDb(file, 100);
    const before = checksumFile(file);
    const db = openDatabase(file);
    expect(() => checkDatabase(db, file, "full")).not.toThrow();
    expect(db.inTransaction).toBe(false); // the probe write was rolled back, not left open
    expect(db.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'datastore_write_probe'").pluck().get()).toBe(0);
    db.close();
    expect(checksumFile(file)).toBe(before);
  });

  it("names damaged pages in the middle of the file", () => {
    const file = path.join(dir, "damaged.db");
    makeDb(file, 2000);
    const fd = fs.openSync(file, "r+");
    fs.writeSync(fd, Buffer.alloc(4096 * 20, 0xa5), 0, 4096 * 20, 4096 * 30);
    fs.closeSync(fd);
    const db = openDatabase(file); // opening alone does not notice
    expect(() => checkDatabase(db, file)).toThrow(DatastoreUnavailable);
    expect(() => checkDatabase(db, file)).toThrow(/is corrupt .*Restore it from a backup/);
    db.close();
  });

  it("scans the pages on a thread of its own, with the same findings", async () => {
    const sound = path.join(dir, "scan-ok.db");
    makeDb(sound, 100);
    await expect(scanPages(sound, "full")).resolves.toBeUndefined();
    const damaged = path.join(dir, "scan-damaged.db");
    makeDb(damaged, 2000);
    const fd = fs.openSync(damaged, "r+");
    fs.writeSync(fd, Buffer.alloc(4096 * 20, 0xa5), 0, 4096 * 20, 4096 * 30);
    fs.closeSync(fd);
    await expect(scanPages(damaged, "quick")).rejects.toThrow(DatastoreUnavailable);
    await expect(scanPages(damaged, "quick")).rejects.toThrow(/is corrupt .*Restore it from a backup/);
  });

  it("explains a file that is not a database", () => {
    const file = path.join(dir, "garbage.db");
    fs.writeFileSync(file, Buffer.alloc(8192, 7));
    let message = "";
    try {
      openDatabase(file);
    } catch (e) {
      message = explainOpenError(e, file);
    }
    expect(message).toMatch(/is not a SQLite database/);
  });

  it("explains a directory that cannot be created", () => {
    const blocker = path.join(dir, "a-file");
    fs.writeFileSync(blocker, "");
    let message = "";
    try {
      openDatabase(path.join(blocker, "sub", "x.db"));
    } catch (e) {
      message = explainOpenError(e, path.join(blocker, "sub", "x.db"));
    }
    expect(message).toMatch(/cannot create or open the database .*check that its directory exists/);
  });

  it("explains a read-only database", () => {
    const file = path.join(dir, "ro.db");
    makeDb(file, 10);
    const db = new Database(file, { readonly: true });
    expect(() => checkDatabase(db, file, "off")).toThrow(/is read-only/);
    db.close();
  });
});
