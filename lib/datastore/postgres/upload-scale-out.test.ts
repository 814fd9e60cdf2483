// Uploads any app server can continue (issue 24, item 3; docs/loading.md, "Several app servers"):
// two API-only app servers as child processes on one PostgreSQL schema and one shared
// DATASTORE_UPLOAD_DIR, each request of an upload sent to either. Checks:
//   1. sent to A, looked at and imported through B, its progress read from both, then searched
//      on both with every row there; a DELETE afterwards answers 409;
//   2. cancelled through B while A imports it: 200, rolled back, gone on both;
//   3. the race, held on the upload's row in upload_imports: a cancel queued behind the
//      import's commit answers 409 and every row is there; a cancel queued before it answers
//      200 and nothing is.
// The file: UPLOAD_SCALE_OUT_FILE (the bench's 3M-row CSV, say, with UPLOAD_SCALE_OUT_ROWS its row
// count), else a generated CSV.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, untilReady, type AppProcess } from "../../test/app-process";

const ADMIN = "upload-scale-out-admin";
const url = process.env.DATASTORE_DATABASE_URL;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Answer = { status: number; body: any };

async function request(app: AppProcess, method: string, pathAndQuery: string, body?: BodyInit, headers: Record<string, string> = {}): Promise<Answer> {
  const init: RequestInit & { duplex?: "half" } = { method, headers: { authorization: ADMIN, ...headers }, body, signal: AbortSignal.timeout(600_000) };
  if (body instanceof ReadableStream) init.duplex = "half";
  const res = await fetch(`${app.url}${pathAndQuery}`, init);
  return { status: res.status, body: await res.json() };
}

/** The answer's result, failing the test unless it is 200. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function ok(r: Answer, what: string): any {
  if (r.status !== 200) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.result;
}

type Line = { progress?: { rows: number }; success?: boolean; result?: { rows: number; resource_id: string }; error?: unknown };

/** An import through `app` answering NDJSON: its lines as they come, and the last one. */
async function importThrough(app: AppProcess, id: string, params: Record<string, unknown>): Promise<{ lines: Line[]; last: Promise<Line> }> {
  const res = await fetch(`${app.url}/api/upload/${id}/import`, {
    method: "POST",
    headers: { authorization: ADMIN, accept: "application/x-ndjson", "content-type": "application/json" },
    body: JSON.stringify(params),
  });
  expect(res.status).toBe(200);
  const lines: Line[] = [];
  const last = (async () => {
    let buffered = "";
    const decoder = new TextDecoder();
    const reader = res.body!.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      buffered += decoder.decode(read.value, { stream: true });
      for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
        lines.push(JSON.parse(buffered.slice(0, end)));
        buffered = buffered.slice(end + 1);
      }
    }
    return lines.at(-1)!;
  })();
  return { lines, last };
}

/** A CSV of `rows` flights-like rows. */
async function writeCsv(to: string, rows: number): Promise<void> {
  const out = fs.createWriteStream(to);
  out.write("n,origin,delay\n");
  for (let i = 0; i < rows; i += 10_000) {
    let chunk = "";
    for (let j = i; j < Math.min(rows, i + 10_000); j++) chunk += `${j},${["SEA", "SFO", "JFK", "ORD"][j % 4]},${(j * 7) % 300}\n`;
    out.write(chunk);
  }
  await new Promise((resolve) => out.end(resolve));
}

const INTERRUPTED = { success: false, error: { __type: "Validation Error", message: "interrupted: nothing was loaded" } };

describe.skipIf(!url)("uploads across two app servers on one PostgreSQL", () => {
  const schema = `t_up_${randomBytes(6).toString("hex")}`;
  const uploadDir = fs.mkdtempSync(path.join(os.tmpdir(), "shared-uploads-"));
  const generated = path.join(uploadDir, "..", `${path.basename(uploadDir)}-flights.csv`);
  const file = process.env.UPLOAD_SCALE_OUT_FILE || generated;
  const rows = Number(process.env.UPLOAD_SCALE_OUT_ROWS || 400_000);
  // Test 3 holds its race on a lock, not on the import's length: it needs only an import still
  // running when the test takes the lock, so a smaller file than tests 1 and 2, which watch
  // progress written once a second.
  const small = path.join(uploadDir, "..", `${path.basename(uploadDir)}-small.csv`);
  const SMALL_ROWS = 100_000;
  let A: AppProcess;
  let B: AppProcess;
  let db: pg.Client;

  beforeAll(async () => {
    if (!process.env.UPLOAD_SCALE_OUT_FILE) await writeCsv(generated, rows);
    await writeCsv(small, SMALL_ROWS);
    // A cancel queued on a row an import holds waits past the reads' time limit here (test 3).
    const env = { DATASTORE_PG_SCHEMA: schema, DATASTORE_PG_POOL: "4", DATASTORE_QUERY_TIMEOUT_MS: "600000", DATASTORE_ADMIN_TOKEN: ADMIN, DATASTORE_SAMPLE_DATA: "0", DATASTORE_UPLOAD_DIR: uploadDir };
    [A, B] = await Promise.all([startApp("A", env), startApp("B", env)]);
    await Promise.all([untilReady(A, 120_000), untilReady(B, 120_000)]);
    db = new pg.Client({ connectionString: url });
    await db.connect();
  }, 180_000);

  afterAll(async () => {
    await Promise.all([A?.kill(), B?.kill()]);
    await db?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await db?.end().catch(() => undefined);
    fs.rmSync(uploadDir, { recursive: true, force: true });
    fs.rmSync(generated, { force: true });
    fs.rmSync(small, { force: true });
  });

  const send = (app: AppProcess, name: string, from = file) =>
    request(app, "POST", `/api/upload?filename=${name}`, Readable.toWeb(fs.createReadStream(from)) as unknown as ReadableStream<Uint8Array>, { "content-type": "application/octet-stream" });
  const show = (app: AppProcess, id: string) => request(app, "GET", `/api/upload/${id}`);
  const remove = (app: AppProcess, id: string) => request(app, "DELETE", `/api/upload/${id}`);
  const total = async (app: AppProcess, resourceId: string) =>
    ok(await request(app, "POST", "/api/action/datastore_search", JSON.stringify({ resource_id: resourceId, limit: 0 }), { "content-type": "application/json" }), "search").total;
  const resources = async (app: AppProcess) => ok(await request(app, "POST", "/api/action/resource_search", "{}", { "content-type": "application/json" }), "resource_search").count;
  const filesOf = (id: string) => fs.readdirSync(uploadDir).filter((f) => f.startsWith(id));
  async function until(what: string, test: () => Promise<boolean>, ms = 120_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!(await test())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(50);
    }
  }

  it("1. sent to A, imported through B, its progress read from both, searched on both: nothing lost", async () => {
    let t = performance.now();
    const preview = ok(await send(A, "flights.csv"), "upload to A");
    const sentSeconds = (performance.now() - t) / 1000;
    const id = preview.upload_id as string;
    expect(ok(await show(B, id), "GET on B")).toMatchObject({ upload_id: id, state: "ready", filename: "flights.csv", size: fs.statSync(file).size, format: "csv" });

    t = performance.now();
    const { last } = await importThrough(B, id, { resource_id: "flights" });
    let ended = false;
    void last.then(() => (ended = true));
    const seen = new Set<string>();
    while (seen.size < 2) {
      if (ended) throw new Error(`the import ended before both servers showed its progress (seen on ${[...seen].join(", ") || "neither"})`);
      for (const app of [A, B]) {
        const state = ok(await show(app, id), `GET on ${app.name}`);
        expect(state.state).toBe("importing");
        if (state.progress?.rows > 0) seen.add(app.name);
      }
      await sleep(100);
    }
    const final = await last;
    const importSeconds = (performance.now() - t) / 1000;
    expect(final).toMatchObject({ success: true, result: { rows } });
    console.log(`upload-scale-out: ${rows} rows, ${fs.statSync(file).size} bytes: sent to A in ${sentSeconds.toFixed(1)} s, imported through B in ${importSeconds.toFixed(1)} s`);

    for (const app of [A, B]) {
      expect(await total(app, "flights")).toBe(rows);
      expect(ok(await show(app, id), `GET on ${app.name}`)).toMatchObject({ state: "imported", resource_id: "flights" });
    }
    const again = await remove(A, id);
    expect(again.status).toBe(409);
    expect(again.body.error.upload[0]).toContain('was imported already, into resource "flights"');
    expect(filesOf(id)).toEqual([]);
  }, 900_000);

  it("2. cancelled through B while A imports it: 200, rolled back, gone on both", async () => {
    const count = await resources(A);
    const id = ok(await send(A, "stopped.csv"), "upload").upload_id as string;
    const { last } = await importThrough(A, id, { resource_id: "stopped" });
    await until("rows going in, as B sees it", async () => ok(await show(B, id), "GET on B").progress?.rows > 0);
    const deleted = await remove(B, id);
    expect({ status: deleted.status, result: deleted.body.result }).toEqual({ status: 200, result: null });
    expect(await last).toEqual(INTERRUPTED);
    for (const app of [A, B]) {
      expect((await show(app, id)).status).toBe(404);
      expect(await resources(app)).toBe(count);
    }
    await until("A to remove the file", async () => filesOf(id).length === 0);
  }, 900_000);

  /** The upload's row in upload_imports, locked by this test until release(). */
  async function lockRow(id: string): Promise<{ release(): Promise<void> }> {
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    await holder.query("BEGIN");
    const r = await holder.query(`SELECT state FROM "${schema}".upload_imports WHERE upload_id = $1 FOR UPDATE`, [id]);
    expect(r.rows).toEqual([{ state: "importing" }]);
    return {
      async release() {
        await holder.query("ROLLBACK");
        await holder.end();
      },
    };
  }

  /** Whether a statement of the app's, matching `pattern`, waits for a lock. */
  async function waiting(pattern: string): Promise<boolean> {
    const r = await db.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1", [pattern]);
    return r.rows[0].n > 0;
  }

  it("3. the race: a cancel queued behind the commit answers 409 with every row there; one queued before it, 200 with none", async () => {
    // The commit first: the import's finish waits on the row, then B's cancel behind it.
    const first = ok(await send(A, "late.csv", small), "upload").upload_id as string;
    const late = await importThrough(A, first, { resource_id: "late" });
    await until("the import to start", async () => ok(await show(B, first), "GET").state === "importing");
    let held = await lockRow(first);
    await until("the import's commit to wait on the row", () => waiting("%SET state = 'imported'%"), 300_000);
    const lateCancel = remove(B, first);
    await until("the cancel to wait behind it", () => waiting("%SET state = 'cancelled'%"));
    await held.release();
    const answered = await lateCancel;
    expect(answered.status).toBe(409);
    expect(answered.body.error.upload[0]).toContain('was imported already, into resource "late"');
    expect(await late.last).toMatchObject({ success: true, result: { rows: SMALL_ROWS } });
    for (const app of [A, B]) expect(await total(app, "late")).toBe(SMALL_ROWS);

    // The cancel first: it takes the row, and the import's commit finds it cancelled.
    const count = await resources(A);
    const second = ok(await send(B, "early.csv", small), "upload").upload_id as string;
    const early = await importThrough(A, second, { resource_id: "early" });
    await until("the import to start", async () => ok(await show(B, second), "GET").state === "importing");
    held = await lockRow(second);
    const earlyCancel = remove(B, second);
    await until("the cancel to wait on the row", () => waiting("%SET state = 'cancelled'%"));
    await until("the import's commit to wait behind it", () => waiting("%SET state = 'imported'%"), 300_000);
    await held.release();
    const cancelled = await earlyCancel;
    expect({ status: cancelled.status, result: cancelled.body.result }).toEqual({ status: 200, result: null });
    expect(await early.last).toEqual(INTERRUPTED);
    for (const app of [A, B]) {
      expect(await resources(app)).toBe(count);
      expect((await show(app, second)).status).toBe(404);
    }
  }, 900_000);
});
