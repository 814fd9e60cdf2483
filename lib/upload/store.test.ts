import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { completeUpload, dataPath, findUpload, newUpload, ownerOf, removeUpload, saveRecord, sweepExpired, type UploadRecord } from "./store";

let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "upload-store-"));
  process.env.DATASTORE_UPLOAD_DIR = dir;
  process.env.DATASTORE_UPLOAD_TTL_SECONDS = "60";
});

function stored(filename: string, owner = "token:a"): UploadRecord {
  const u = newUpload(filename);
  fs.writeFileSync(u.partial, "a,b\n1,2\n");
  completeUpload(u);
  const record: UploadRecord = { id: u.id, owner, filename, size: 8, format: "csv", read: {}, columns: ["a", "b"] };
  saveRecord(record);
  return record;
}

describe("upload store", () => {
  it("names files by a random id, borrowing only a plain extension from the client's name", () => {
    expect(path.basename(newUpload("Flights 2024.CSV").file)).toMatch(/^[0-9a-f-]{36}\.csv$/);
    expect(path.basename(newUpload("../../etc/passwd").file)).toMatch(/^[0-9a-f-]{36}$/);
    expect(path.basename(newUpload("x.c$v").file)).toMatch(/^[0-9a-f-]{36}$/);
    expect(path.dirname(newUpload("a.csv").file)).toBe(dir);
  });

  it("finds an upload for its owner only, and never by a path", () => {
    const r = stored("a.csv");
    expect(findUpload(r.id, "token:a")).toEqual(r);
    expect(findUpload(r.id, "token:b")).toBeUndefined();
    expect(findUpload(`../${path.basename(dir)}/${r.id}`, "token:a")).toBeUndefined();
    removeUpload(r.id);
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(findUpload(r.id, "token:a")).toBeUndefined();
  });

  it("an owner is the token, or the admin token", () => {
    expect(ownerOf({ scope: "write", tokenId: "t1", name: "x" })).toBe("token:t1");
    expect(ownerOf({ scope: "admin", name: "DATASTORE_ADMIN_TOKEN" })).toBe("admin:DATASTORE_ADMIN_TOKEN");
  });

  it("sweeps uploads and partial files unused for the TTL, but not busy ones", () => {
    const old = stored("old.csv");
    const busy = stored("busy.csv");
    const fresh = stored("fresh.json");
    const partial = newUpload("cut.csv");
    fs.writeFileSync(partial.partial, "a,b\n");
    const past = new Date(Date.now() - 120_000);
    for (const f of fs.readdirSync(dir)) if (!f.startsWith(fresh.id)) fs.utimesSync(path.join(dir, f), past, past);
    expect(sweepExpired(new Set([busy.id]))).toBe(2);
    expect(fs.readdirSync(dir).sort()).toEqual([path.basename(dataPath(busy)), `${busy.id}.upload-record`, path.basename(dataPath(fresh)), `${fresh.id}.upload-record`].sort());
    expect(findUpload(old.id, "token:a")).toBeUndefined();
    // A use counts as use: touched now, it survives the next sweep.
    fs.utimesSync(path.join(dir, `${busy.id}.upload-record`), past, past);
    expect(findUpload(busy.id, "token:a")).toBeDefined();
    expect(sweepExpired()).toBe(0);
  });
});
