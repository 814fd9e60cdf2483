// Uploads waiting to be imported (docs/loading.md): each a data file `<id><ext>` and a
// record `<id>.upload-record` beside it in config.uploadDir, named by a random id, never by anything the
// client sent (the original name only lends its extension, for format detection). An upload
// belongs to the token that sent it; one not used for uploadTtlSeconds is swept away.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Principal } from "../auth/principal";
import { config } from "../config";
import type { Format, ReadOptions } from "../import/source";

export interface UploadRecord {
  id: string;
  /** Who may see it: the token's id, or the admin token's name. */
  owner: string;
  filename: string;
  size: number;
  format: Format;
  /** What the client asked for at upload time; an import may override them. */
  read: Pick<ReadOptions, "encoding" | "delimiter">;
  /** The file's columns as previewed, so an import's renames can be checked up front. */
  columns: string[];
}

const ID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Whether `id` has the shape of an upload id (random, never anything a client chose). */
export function isUploadId(id: string): boolean {
  return ID_RE.test(id);
}
const PARTIAL = ".part";
/** Not `.json`: that may be the data file's own extension. */
const RECORD = ".upload-record";

/** The owner key of a principal with write scope: its token, or the admin token. */
export function ownerOf(user: Principal): string {
  return user.tokenId ? `token:${user.tokenId}` : `admin:${user.name ?? "admin"}`;
}

/** The extension of the client's file name, when it is a plain one. */
function extensionOf(filename: string): string {
  const ext = path.extname(path.basename(filename)).toLowerCase();
  return /^\.[a-z0-9]{1,10}$/.test(ext) ? ext : "";
}

function dir(): string {
  return config.uploadDir;
}

function recordPath(id: string): string {
  return path.join(dir(), `${id}${RECORD}`);
}

/** A new upload's id and the path its bytes go to until it is complete. */
export function newUpload(filename: string): { id: string; partial: string; file: string } {
  fs.mkdirSync(dir(), { recursive: true, mode: 0o700 });
  const id = randomUUID();
  const file = path.join(dir(), `${id}${extensionOf(filename)}`);
  return { id, partial: `${file}${PARTIAL}`, file };
}

/** The body is all there: the upload's file takes its name. */
export function completeUpload(upload: { partial: string; file: string }): string {
  fs.renameSync(upload.partial, upload.file);
  return upload.file;
}

export function dataPath(record: UploadRecord): string {
  return path.join(dir(), `${record.id}${extensionOf(record.filename)}`);
}

export function saveRecord(record: UploadRecord): void {
  fs.writeFileSync(recordPath(record.id), JSON.stringify(record), { mode: 0o600 });
}

/** The upload `id` if it exists and belongs to `owner` (its last use is now); else undefined. */
export function findUpload(id: string, owner: string): UploadRecord | undefined {
  if (!ID_RE.test(id)) return undefined;
  let record: UploadRecord;
  try {
    record = JSON.parse(fs.readFileSync(recordPath(id), "utf8")) as UploadRecord;
  } catch {
    return undefined;
  }
  if (record.owner !== owner || !fs.existsSync(dataPath(record))) return undefined;
  const now = new Date();
  fs.utimesSync(recordPath(id), now, now);
  return record;
}

/** Removes an upload's files; a file already gone is no error. */
export function removeUpload(id: string): void {
  if (!ID_RE.test(id)) return;
  for (const name of fs.readdirSync(dir(), { withFileTypes: true })) {
    if (name.isFile() && name.name.startsWith(id)) fs.rmSync(path.join(dir(), name.name), { force: true });
  }
}

/** Removes an upload's record: it is gone for every app server, while an import still reading
 *  its data file (on another server, say) removes that as it stops. */
export function removeRecord(id: string): void {
  if (ID_RE.test(id)) fs.rmSync(recordPath(id), { force: true });
}

export function removeFile(file: string): void {
  fs.rmSync(file, { force: true });
}

/**
 * Removes uploads (and partial ones) not touched for the TTL, except those in `busy` (being
 * imported). A file still being written is touched by every write, so it is never swept.
 */
export function sweepExpired(busy: ReadonlySet<string> = new Set(), now = Date.now()): number {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir(), { withFileTypes: true });
  } catch {
    return 0; // no directory yet: nothing uploaded
  }
  const ttl = config.uploadTtlSeconds * 1000;
  // An upload's last use: the latest time of its files (the record is touched on each use).
  const lastUse = new Map<string, number>();
  for (const e of entries) {
    const id = e.name.slice(0, 36);
    if (!e.isFile() || !ID_RE.test(id)) continue;
    const mtime = fs.statSync(path.join(dir(), e.name), { throwIfNoEntry: false })?.mtimeMs ?? 0;
    lastUse.set(id, Math.max(mtime, lastUse.get(id) ?? 0));
  }
  let removed = 0;
  for (const [id, at] of lastUse) {
    if (busy.has(id) || now - at < ttl) continue;
    removeUpload(id);
    removed++;
  }
  return removed;
}
