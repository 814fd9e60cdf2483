// The upload endpoint (docs/loading.md; /work/notes/upload-contract.md) through the
// real route handlers on a real store: every format, the body limits, bad files, token rules
// and ownership, new / append / replace with renames, types and keys, the NDJSON progress
// stream, and, over a real HTTP server, a client that leaves mid-upload or mid-import.
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAppServer } from "../server/app-server";
import { handleUpload } from "./upload-handler";
import { loadRoutes } from "../server/routes";
import { ADMIN, call, freshDb, send, storeChecksum } from "../test/api";
import { admin, denied, fails, notFound, ok, token } from "../test/contract";

let uploadDir: string;
let WRITE: string;
let WRITE2: string;
let READ: string;

beforeAll(async () => {
  freshDb();
  WRITE = await token("write");
  WRITE2 = await token("write");
  READ = await token("read");
});

beforeEach(() => {
  uploadDir = fs.mkdtempSync(path.join(os.tmpdir(), "uploads-"));
  process.env.DATASTORE_UPLOAD_DIR = uploadDir;
  delete process.env.DATASTORE_MAX_UPLOAD_BYTES;
  delete process.env.DATASTORE_MAX_BODY_BYTES;
});

afterAll(() => {
  delete process.env.DATASTORE_UPLOAD_DIR;
});

const CITIES_CSV = "city,people,ratio,founded\nOslo,709000,0.5,1048-01-01\nLima,10000000,1.25,1535-01-18\nPune,3124000,2,\n";

function upload(body: BodyInit, filename: string, auth: string | undefined = WRITE, query = "") {
  return send(`/api/upload?filename=${encodeURIComponent(filename)}${query}`, { body, token: auth, headers: { "content-type": "application/octet-stream" } });
}

function importUpload(id: string, params: Record<string, unknown>, auth: string | undefined = WRITE, accept?: string) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (accept) headers.accept = accept;
  return send(`/api/upload/${id}/import`, { body: JSON.stringify(params), token: auth, headers });
}

/** Files in the upload directory (none once an upload is imported, refused or deleted). */
const leftovers = () => fs.readdirSync(uploadDir);

async function records(resourceId: string): Promise<Record<string, unknown>[]> {
  return ok(await admin("datastore_search", { resource_id: resourceId, sort: "_id" })).records;
}

async function resourceCount(): Promise<number> {
  return ok(await call("resource_search", {}, { token: ADMIN })).count;
}

async function until(what: string, test: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function xlsx(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet("cities");
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe("each format: preview, then import", () => {
  const cases: [string, () => Promise<BodyInit> | BodyInit, string, { id: string; type: string }[]][] = [
    ["cities.csv", () => CITIES_CSV, "csv", [{ id: "city", type: "text" }, { id: "people", type: "int4" }, { id: "ratio", type: "numeric" }, { id: "founded", type: "date" }]],
    ["cities.tsv", () => CITIES_CSV.replace(/,/g, "\t"), "tsv", [{ id: "city", type: "text" }, { id: "people", type: "int4" }, { id: "ratio", type: "numeric" }, { id: "founded", type: "date" }]],
    [
      "cities.xlsx",
      async () => new Uint8Array(await xlsx([["city", "people", "ratio"], ["Oslo", 709000, 0.5], ["Lima", 10000000, 1.25], ["Pune", 3124000, 2]])),
      "xlsx",
      [{ id: "city", type: "text" }, { id: "people", type: "int4" }, { id: "ratio", type: "float8" }],
    ],
    [
      "cities.json",
      () => JSON.stringify([{ city: "Oslo", people: 709000, ratio: 0.5 }, { city: "Lima", people: 10000000, ratio: 1.25 }, { city: "Pune", people: 3124000, ratio: 2 }]),
      "json",
      [{ id: "city", type: "text" }, { id: "people", type: "int4" }, { id: "ratio", type: "float8" }],
    ],
    [
      "cities.ndjson",
      () => '{"city":"Oslo","people":709000,"ratio":0.5}\n{"city":"Lima","people":10000000,"ratio":1.25}\n{"city":"Pune","people":3124000,"ratio":2}\n',
      "ndjson",
      [{ id: "city", type: "text" }, { id: "people", type: "int4" }, { id: "ratio", type: "float8" }],
    ],
    // Written with hyparquet-writer: city STRING, people INT32, ratio DOUBLE, the same three rows.
    ["cities.parquet", () => new Uint8Array(fs.readFileSync(path.resolve(import.meta.dirname, "../upload/fixtures/cities.parquet"))), "parquet", [{ id: "city", type: "text" }, { id: "people", type: "int4" }, { id: "ratio", type: "float8" }]],
  ];

  for (const [filename, body, format, columns] of cases) {
    it(format, async () => {
      const bytes = await body();
      const preview = ok(await upload(bytes, filename));
      expect(preview).toMatchObject({ filename, format, columns, sampled_rows: 3 });
      expect(preview.upload_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(preview.size).toBe(typeof bytes === "string" ? Buffer.byteLength(bytes) : (bytes as Uint8Array).byteLength);
      expect(preview.records).toHaveLength(3);
      expect(preview.records[0][0]).toBe("Oslo");
      // CSV values come as the reader gives them: strings.
      if (format === "csv" || format === "tsv") expect(preview.records[0]).toEqual(["Oslo", "709000", "0.5", "1048-01-01"]);
      expect(Array.isArray(preview.notes)).toBe(true);
      expect(leftovers()).toHaveLength(2); // the file and its record

      const result = ok(await importUpload(preview.upload_id, { mode: "new" }));
      expect(result).toMatchObject({ name: "cities", created: true, rows: 3, fields: columns, format });
      expect(typeof result.seconds).toBe("number");
      const rows = await records(result.resource_id);
      expect(rows.map((r) => [r.city, r.people])).toEqual([
        ["Oslo", 709000],
        ["Lima", 10000000],
        ["Pune", 3124000],
      ]);
      expect(leftovers()).toEqual([]); // imported: the file is gone
    });
  }
});

describe("size", () => {
  it("streams a body bigger than DATASTORE_MAX_BODY_BYTES and imports it", async () => {
    process.env.DATASTORE_MAX_BODY_BYTES = "1000";
    let csv = "n,word\n";
    for (let i = 0; i < 5000; i++) csv += `${i},w${i}\n`;
    const preview = ok(await upload(csv, "big.csv"));
    expect(preview.size).toBeGreaterThan(40_000);
    const result = ok(await importUpload(preview.upload_id, {}));
    expect(result.rows).toBe(5000);
  });

  it("refuses a body over DATASTORE_MAX_UPLOAD_BYTES with 413, counted or declared, and keeps nothing", async () => {
    process.env.DATASTORE_MAX_UPLOAD_BYTES = "1000";
    const body = `a,b\n${"1,2\n".repeat(2000)}`;
    const expected = {
      help: expect.any(String),
      success: false,
      error: { __type: "Request Entity Too Large", message: "Upload is larger than the limit of 1000 bytes (DATASTORE_MAX_UPLOAD_BYTES)" },
    };
    // Streamed: no length known up front, counted as it arrives.
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(body));
        c.close();
      },
    });
    const counted = await upload(stream, "a.csv");
    expect({ status: counted.status, body: counted.body }).toEqual({ status: 413, body: expected });
    expect(leftovers()).toEqual([]);
    const declared = await send("/api/upload?filename=a.csv", { body, token: WRITE, headers: { "content-length": String(body.length) } });
    expect({ status: declared.status, body: declared.body }).toEqual({ status: 413, body: expected });
    expect(leftovers()).toEqual([]);
  });
});

describe("a file that cannot be read", () => {
  it("a ragged row: 409 naming the line, nothing written, no file kept", async () => {
    const before = await storeChecksum();
    const count = await resourceCount();
    const res = await upload("a,b,c\n1,2,3\n4,5,6\n7,8,9\n1,2,3\n4,5,6\n7,8,9,10\n", "ragged.csv");
    fails(res, 409, { message: "line 7: expected 3 fields, found 4" });
    expect(leftovers()).toEqual([]);
    expect(await resourceCount()).toBe(count);
    expect(await storeChecksum()).toBe(before);
  });

  it("no columns, or an unknown format: 409", async () => {
    fails(await upload("", "empty.csv"), 409, { message: expect.stringMatching(/no header row|no columns/) });
    fails(await upload("a,b\n1,2\n", "x.csv", WRITE, "&format=excel"), 409, { format: [expect.stringMatching(/not a format/)] });
    expect(leftovers()).toEqual([]);
  });
});

describe("a client that leaves while the preview is read", () => {
  it("gets 400 and leaves no file", async () => {
    const gone = new AbortController();
    const body = (async function* () {
      yield new TextEncoder().encode(CITIES_CSV);
      gone.abort(); // the body is all there; the socket closes as the preview is read
    })();
    const headers = new Headers({ authorization: WRITE });
    const res = await handleUpload({ method: "POST", url: "http://localhost/api/upload?filename=a.csv", headers, body: null, stream: () => body, signal: gone.signal });
    expect(res.status).toBe(400);
    expect(leftovers()).toEqual([]);
  });
});

describe("tokens and ownership", () => {
  it("anonymous and read tokens: 403, nothing stored; write and admin tokens: 200", async () => {
    denied(await upload(CITIES_CSV, "a.csv", ""));
    denied(await upload(CITIES_CSV, "a.csv", READ));
    expect(leftovers()).toEqual([]);
    ok(await upload(CITIES_CSV, "a.csv", WRITE));
    ok(await upload(CITIES_CSV, "a.csv", ADMIN));
    ok(await upload(CITIES_CSV, "a.csv", `Bearer ${WRITE}`));
  });

  it("another token cannot import or delete someone else's upload (404); its owner can", async () => {
    const id = ok(await upload(CITIES_CSV, "a.csv", WRITE)).upload_id;
    notFound(await importUpload(id, {}, WRITE2));
    notFound(await send(`/api/upload/${id}`, { method: "DELETE", token: WRITE2 }));
    notFound(await send(`/api/upload/${id}`, { method: "DELETE", token: ADMIN }));
    denied(await importUpload(id, {}, READ));
    denied(await send(`/api/upload/${id}`, { method: "DELETE" }));
    expect(leftovers()).toHaveLength(2);
    const deleted = await send(`/api/upload/${id}`, { method: "DELETE", token: WRITE });
    expect({ status: deleted.status, success: deleted.body.success, result: deleted.body.result }).toEqual({ status: 200, success: true, result: null });
    expect(leftovers()).toEqual([]);
    notFound(await send(`/api/upload/${id}`, { method: "DELETE", token: WRITE }));
    notFound(await importUpload(id, {}, WRITE));
    notFound(await importUpload(encodeURIComponent("../../etc/passwd"), {}, WRITE));
  });

  it("an upload not used for DATASTORE_UPLOAD_TTL_SECONDS is swept when the next one arrives", async () => {
    const old = ok(await upload(CITIES_CSV, "a.csv")).upload_id;
    const past = new Date(Date.now() - 2 * 3600_000);
    for (const f of leftovers()) fs.utimesSync(path.join(uploadDir, f), past, past);
    const fresh = ok(await upload(CITIES_CSV, "b.csv")).upload_id;
    expect(leftovers().sort()).toEqual([`${fresh}.csv`, `${fresh}.upload-record`].sort());
    notFound(await importUpload(old, {}));
  });
});

describe("import", () => {
  it("private: true creates a private resource", async () => {
    const id = ok(await upload(CITIES_CSV, "secret.csv")).upload_id;
    const r = ok(await importUpload(id, { private: true, name: "Secret cities", description: "Not for all" }));
    denied(await call("datastore_search", { resource_id: r.resource_id }));
    const shown = ok(await admin("resource_show", { id: r.resource_id }));
    expect(shown).toMatchObject({ name: "Secret cities", description: "Not for all" });
    expect(ok(await call("datastore_search", { resource_id: r.resource_id }, { token: READ })).records).toHaveLength(3);
  });

  it("renames, types and a primary key; a duplicate key keeps the upload for another try", async () => {
    const csv = "Town,people\nOslo,709000\nLima,10000000\nOslo,1\n";
    const id = ok(await upload(csv, "towns.csv")).upload_id;
    const params = { resource_id: "towns", fields: [{ from: "Town", id: "town" }, { from: "people", id: "people", type: "text" }], primary_key: ["town"] };
    const dup = await importUpload(id, params);
    fails(dup, 409, { message: expect.stringMatching(/^primary_key town: .*duplicate/i) });
    expect(leftovers()).toHaveLength(2); // kept
    notFound(await call("datastore_search", { resource_id: "towns" }));

    const r = ok(await importUpload(id, { ...params, primary_key: ["people"] }));
    expect(r).toMatchObject({ resource_id: "towns", name: "towns", created: true, rows: 3, fields: [{ id: "town", type: "text" }, { id: "people", type: "text" }] });
    expect((await records("towns")).map((x) => x.people)).toEqual(["709000", "10000000", "1"]);
    expect(leftovers()).toEqual([]);
  });

  it("bad parameters: 409 per key, before anything is read", async () => {
    const id = ok(await upload(CITIES_CSV, "a.csv")).upload_id;
    const res = await importUpload(id, { mode: "merge", fields: [{ from: "nope", id: "x" }, { from: "city", id: "_bad" }, { from: "people", type: "integer!" }], private: "yes" });
    fails(res, 409, { mode: [expect.any(String)], fields: expect.arrayContaining([expect.stringMatching(/"nope" is not a column/), expect.stringMatching(/not a valid field name/), expect.stringMatching(/not a valid field type/)]), private: [expect.any(String)] });
    fails(await importUpload(id, { mode: "append" }), 409, { resource_id: [expect.any(String)] });
    fails(await importUpload(id, { primary_key: [1] }), 409, { primary_key: [expect.stringMatching(/^invalid value/)] });
    notFound(await importUpload(id, { mode: "append", resource_id: "missing" }));
    notFound(await importUpload(id, { mode: "replace", resource_id: "missing" }));
    expect(leftovers()).toHaveLength(2);
  });

  it("append or replace through an alias: 404 as every write through an alias, nothing written", async () => {
    ok(await admin("datastore_create", { resource: { name: "Aliased" }, fields: [{ id: "city", type: "text" }], records: [{ city: "Old" }], aliases: ["upload-alias"] }));
    const id = ok(await upload("city\nNew\n", "a.csv")).upload_id;
    const before = await storeChecksum();
    for (const mode of ["append", "replace"]) {
      fails(await importUpload(id, { mode, resource_id: "upload-alias" }), 404, { message: 'Not found: Resource "upload-alias" was not found.' });
    }
    expect(await storeChecksum()).toBe(before);
    expect(leftovers()).toHaveLength(2);
  });

  it("append: adds the rows, with renames; types come from the resource", async () => {
    const first = ok(await upload("city,people\nOslo,709000\n", "a.csv")).upload_id;
    ok(await importUpload(first, { resource_id: "appended" }));
    const second = ok(await upload("town,people\nLima,10000000\nPune,3124000\n", "b.csv")).upload_id;
    const r = ok(await importUpload(second, { mode: "append", resource_id: "appended", fields: [{ from: "town", id: "city" }] }));
    expect(r).toMatchObject({ resource_id: "appended", created: false, rows: 2, fields: [{ id: "city", type: "text" }, { id: "people", type: "int4" }] });
    expect((await records("appended")).map((x) => x.city)).toEqual(["Oslo", "Lima", "Pune"]);
  });

  it("replace: the file's fields and rows; id, name, description, private flag, aliases and kept fields' info stay", async () => {
    const created = ok(
      await admin("datastore_create", {
        resource: { name: "Old name", description: "Kept", private: true },
        fields: [
          { id: "city", type: "text", info: { label: "City", notes: "where" } },
          { id: "gone", type: "int", info: { label: "Gone" } },
        ],
        records: [{ city: "Old", gone: 1 }],
        aliases: ["replaced-alias"],
      }),
    );
    const rid: string = created.resource_id;
    const id = ok(await upload(CITIES_CSV, "new.csv")).upload_id;
    const r = ok(await importUpload(id, { mode: "replace", resource_id: rid }));
    expect(r).toMatchObject({ resource_id: rid, name: "Old name", created: false, rows: 3 });
    const shown = ok(await admin("resource_show", { id: rid }));
    expect(shown).toMatchObject({ id: rid, name: "Old name", description: "Kept" });
    denied(await call("datastore_search", { resource_id: rid })); // still private
    const searched = ok(await admin("datastore_search", { resource_id: "replaced-alias", limit: 0 }));
    expect(searched.fields.map((f: { id: string }) => f.id)).toEqual(["_id", "city", "people", "ratio", "founded"]);
    expect(searched.fields.find((f: { id: string }) => f.id === "city").info).toEqual({ label: "City", notes: "where" });
    expect((await records(rid)).map((x) => x.city)).toEqual(["Oslo", "Lima", "Pune"]);

    // A replace that fails leaves the resource as it was.
    const before = await storeChecksum();
    const bad = ok(await upload("city,people\nX,notanumber\n", "bad.csv")).upload_id;
    fails(await importUpload(bad, { mode: "replace", resource_id: rid, name: "New", fields: [{ from: "people", id: "people", type: "int" }] }), 409, {
      message: expect.stringMatching(/^line 2, column "people": .*notanumber/),
    });
    expect(await storeChecksum()).toBe(before);
  });
});

describe("progress stream", () => {
  it("answers NDJSON: progress lines, then exactly one final line", async () => {
    let csv = "n,word\n";
    for (let i = 0; i < 100_000; i++) csv += `${i},w${i % 100}\n`;
    const id = ok(await upload(csv, "lines.csv")).upload_id;
    const res = await importUpload(id, { resource_id: "lines" }, WRITE, "application/x-ndjson");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/x-ndjson/);
    const lines = res.text.trim().split("\n").map((l) => JSON.parse(l));
    const last = lines.pop();
    expect(last).toEqual({ success: true, result: expect.objectContaining({ resource_id: "lines", rows: 100_000, created: true }) });
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) {
      expect(Object.keys(l)).toEqual(["progress"]);
      expect(Object.keys(l.progress).sort()).toEqual(["fraction", "phase", "rows", "rows_per_second", "seconds_left"]);
      expect(["loading", "indexing"]).toContain(l.progress.phase);
      expect(l.progress.fraction).toBeGreaterThanOrEqual(0);
      expect(l.progress.fraction).toBeLessThanOrEqual(1);
    }
  });

  it("an import error is the final line, naming the line; the upload is kept", async () => {
    const id = ok(await upload("k,v\n1,a\n2,b\nthree,c\n", "bad.csv")).upload_id;
    const res = await importUpload(id, { fields: [{ from: "k", id: "k", type: "int" }] }, WRITE, "application/x-ndjson");
    const lines = res.text.trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.at(-1)).toEqual({ success: false, error: { __type: "Validation Error", message: expect.stringMatching(/^line 4, column "k": .*three/) } });
    expect(leftovers()).toHaveLength(2);
  });
});

describe("over a real HTTP server", () => {
  let server: http.Server;
  let port: number;

  beforeAll(async () => {
    const routes = await loadRoutes(path.resolve(import.meta.dirname, "../../app"));
    server = createAppServer(routes, (_req, res) => void res.writeHead(404).end(), false);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as net.AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("a client that leaves mid-body leaves no file", async () => {
    const count = await resourceCount();
    const socket = net.connect(port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write(`POST /api/upload?filename=cut.csv HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${WRITE}\r\nContent-Length: 50000000\r\n\r\n`);
    socket.write(`a,b\n${"1,2\n".repeat(250_000)}`);
    await until("the partial file", () => leftovers().some((f) => f.endsWith(".part") && fs.statSync(path.join(uploadDir, f)).size > 0));
    socket.destroy();
    await until("the partial file to go", () => leftovers().length === 0);
    expect(await resourceCount()).toBe(count);
  });

  it("a client that leaves mid-import: nothing written, the file removed", async () => {
    const file = path.join(uploadDir, "..", `many-${process.pid}.csv`);
    const out = fs.createWriteStream(file);
    out.write("n,word,value\n");
    for (let i = 0; i < 400_000; i += 10_000) {
      let chunk = "";
      for (let j = i; j < i + 10_000; j++) chunk += `${j},word${j % 1000},${(j * 0.37).toFixed(2)}\n`;
      out.write(chunk);
    }
    await new Promise((resolve) => out.end(resolve));
    const id = ok(await upload(fs.readFileSync(file), "many.csv")).upload_id;
    fs.rmSync(file);
    const before = await storeChecksum();
    const count = await resourceCount();

    const firstLine = await new Promise<string>((resolve, reject) => {
      const req = http.request({ port, host: "127.0.0.1", method: "POST", path: `/api/upload/${id}/import`, headers: { authorization: WRITE, accept: "application/x-ndjson", "content-type": "application/json" } }, (res) => {
        res.once("data", (chunk: Buffer) => {
          req.destroy(); // leave as soon as the import has started
          resolve(chunk.toString());
        });
      });
      req.on("error", (e) => (e.message.includes("socket hang up") || (e as NodeJS.ErrnoException).code === "ECONNRESET" ? undefined : reject(e)));
      req.end(JSON.stringify({ resource_id: "many" }));
    });
    expect(JSON.parse(firstLine.split("\n")[0])).toMatchObject({ progress: { phase: "loading" } });
    await until("the upload to go", () => leftovers().length === 0, 30_000);
    expect(await resourceCount()).toBe(count);
    notFound(await call("datastore_search", { resource_id: "many" }));
    expect(await storeChecksum()).toBe(before);
  });
});
