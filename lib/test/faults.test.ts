// Faults against the built server (lib/server/main.ts as a child process): SIGKILL in the middle of
// a large upsert and of an import, then a restart that finds the database sound and the data
// exactly as before or after the write; start-up with a database it cannot use (one clear
// message, exit 1, no crash loop); `npm run backup` while writes go on. The full disk is
// simulated in-process (lib/http/disk-full.test.ts).
// Those are SQLite's faults (its file, its locks). On PostgreSQL (vitest's postgres project) the
// faults of a database server run instead, in-process on a database of their own: the server
// drops the app's connections, idle or in the middle of a request or a write; a statement
// outlives statement_timeout; and a server that cannot reach its database does not start.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatastore } from "../datastore";
import { openEngine } from "../datastore/open";
import { groupFile } from "../datastore/sqlite/groups";
import { integrityCheck, orphanTables, resourceRows } from "../datastore/sqlite/test-support";
import { ADMIN as API_ADMIN, call, createResource, currentStore, freshDb, isPostgres, storeChecksum } from "./api";
import { appConnectionsWaiting, createDatabase, lockResourceTables, terminateAppConnections, withDatabase } from "./pg-support";
import { ROOT, ensureBuilt, startServer, tempDir, type RunningServer } from "./server";

const ADMIN = "fault-admin-token";
const dir = tempDir("datastore-faults-");
fs.chmodSync(dir, 0o755); // the unprivileged start-ups below must reach their files
const running: RunningServer[] = [];

beforeAll(async () => {
  await ensureBuilt();
}, 600_000);

afterAll(async () => {
  await Promise.all(running.map((s) => s.kill()));
  try {
    fs.rmSync(dir, { recursive: true, force: true });
  } catch {
    /* a temporary directory left behind is no failure */
  }
});

async function serve(dbFile: string, env: Record<string, string> = {}): Promise<RunningServer> {
  const s = await startServer({ dbFile, adminToken: ADMIN, env });
  running.push(s);
  return s;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function api(s: RunningServer, action: string, params: Record<string, unknown>): Promise<{ status: number; body: any }> {
  const res = await fetch(`${s.url}/api/action/${action}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: ADMIN },
    body: JSON.stringify(params),
  });
  return { status: res.status, body: await res.json() };
}

type State = Map<number, string>;

/** A resource's rows as stored in the file, as key → "v|n". */
function snapshot(file: string, id: string): State {
  return new Map((resourceRows(file, id) ?? []).map((r) => [r.k as number, `${r.v}|${r.n}`]));
}

/** The row count the catalog claims, as datastore_info reports it. */
async function catalogCount(s: RunningServer, id: string): Promise<number> {
  return (await api(s, "datastore_info", { id })).body.result.meta.count;
}

/** A datastore file holding one resource of `rows` rows, closed again. */
async function datastoreFile(file: string, rows: number): Promise<void> {
  const engine = await openEngine({ file, readWorkers: 0 });
  await engine.createResource({ id: "t", name: "t", description: "", private: false }, [{ id: "x", type: "text" }]);
  await engine.write("t", Array.from({ length: rows }, (_, i) => ({ x: `row ${i} ${"x".repeat(300)}` })), "insert");
  await engine.close();
}

function same(a: State, b: State): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) if (b.get(k) !== v) return false;
  return true;
}

/** Starts the server expecting it to refuse: exit 1 within 30 s, two lines (why, and "not
 *  starting"), no stack trace. */
/** `then`: what the server says it does, "not starting" unless the problem is found once it serves. */
async function startFails(dbFile: string, message: RegExp, opts: { uid?: number; gid?: number; env?: Record<string, string> } = {}, then = /not starting/) {
  const s = await startServer({ dbFile, adminToken: ADMIN, waitReady: false, ...opts });
  running.push(s);
  const code = await Promise.race([s.exited, new Promise((r) => setTimeout(() => r("still running after 30 s"), 30_000))]);
  if (code === "still running after 30 s") await s.kill();
  expect(code, s.output()).toBe(1);
  const said = s.output().split("\n").filter((l) => l.startsWith("datastore:"));
  expect(said, s.output()).toEqual([expect.stringMatching(message), expect.stringMatching(then)]);
  expect(s.output()).not.toMatch(/^\s+at /m); // a sentence, not a stack trace
}

// SQLite only (to the end of the `npm run backup` block): these faults read and damage the file.
describe.skipIf(isPostgres)("SIGKILL in the middle of a write, then a restart", () => {
  it("a large upsert is all there or not at all", async () => {
    const dbFile = path.join(dir, "upsert.db");
    let server = await serve(dbFile);
    const fields = [
      { id: "k", type: "int" },
      { id: "v", type: "text" },
      { id: "n", type: "int" },
    ];
    const BASE = 4_000;
    const TOTAL = 12_000;
    const ids: string[] = [];
    for (const name of ["target", "calibration"]) {
      const res = await api(server, "datastore_create", { resource: { name }, fields, primary_key: "k" });
      ids.push(res.body.result.resource_id);
      const records = Array.from({ length: BASE }, (_, k) => ({ k, v: "base", n: k }));
      expect((await api(server, "datastore_upsert", { resource_id: res.body.result.resource_id, method: "insert", records })).status).toBe(200);
    }
    const [target, calibration] = ids;
    // Updates every existing row and inserts twice as many: one transaction of 12,000 rows.
    const payload = (id: string, tag: string) =>
      JSON.stringify({ resource_id: id, records: Array.from({ length: TOTAL }, (_, k) => ({ k, v: tag, n: k < BASE ? k + 1 : k })) });
    // Timed on the twin resource (twice: the first run warms the server up).
    let took = 0;
    for (const tag of ["warm-up", "timed"]) {
      const t0 = Date.now();
      const calib = await fetch(`${server.url}/api/action/datastore_upsert`, { method: "POST", headers: { "content-type": "application/json", authorization: ADMIN }, body: payload(calibration, tag) });
      expect(calib.status).toBe(200);
      took = Date.now() - t0;
    }

    const outcomes: string[] = [];
    // Killed part-way through (a fraction of the calibrated time), and once it has answered 200:
    // an acknowledged upsert must all be there after the restart.
    for (const [i, fraction] of [0.3, 0.7, 0.95, "acknowledged"].entries()) {
      const before = snapshot(dbFile, target);
      const tag = `attempt ${i}`;
      const after: State = new Map(before);
      for (let k = 0; k < TOTAL; k++) after.set(k, `${tag}|${k < BASE ? k + 1 : k}`);
      const request = fetch(`${server.url}/api/action/datastore_upsert`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: ADMIN },
        body: payload(target, tag),
      }).catch(() => null);
      const at = typeof fraction === "number" ? `${Math.round(took * fraction)} ms` : "after the 200";
      if (typeof fraction === "number") await new Promise((r) => setTimeout(r, took * fraction));
      else expect((await request)?.status).toBe(200);
      await server.kill();
      await request;
      server = await serve(dbFile);
      expect(integrityCheck(dbFile)).toBe("ok");
      const now = snapshot(dbFile, target);
      expect(await catalogCount(server, target)).toBe(now.size);
      const outcome = same(now, before) ? "before" : same(now, after) ? "after" : "neither";
      outcomes.push(`${at}: ${outcome}`);
      if (typeof fraction === "number") expect(outcome, `killed ${at} into a ${took} ms upsert`).not.toBe("neither");
      else expect(outcome, `killed ${at}`).toBe("after");
    }
    console.log(`upsert of ${TOTAL} rows takes ${took} ms; SIGKILL at ${outcomes.join(", ")}`);
    // The restarted server takes writes again.
    expect((await api(server, "datastore_upsert", { resource_id: target, records: [{ k: -1, v: "alive", n: 0 }] })).status).toBe(200);
  }, 180_000);

  it("an import (run while the server serves) leaves nothing behind, and runs again afterwards", async () => {
    const dbFile = path.join(dir, "import.db");
    let server = await serve(dbFile);
    const keep = (await api(server, "datastore_create", { resource: { name: "keep" }, records: Array.from({ length: 100 }, (_, k) => ({ k, v: `row ${k}`, n: k })) })).body.result
      .resource_id;
    const keepBefore = snapshot(dbFile, keep);
    const csv = path.join(dir, "import.csv");
    const ROWS = 150_000;
    const lines = ["k,v,n"];
    for (let k = 0; k < ROWS; k++) lines.push(`${k},value ${k},${k * 3}`);
    fs.writeFileSync(csv, `${lines.join("\n")}\n`);

    const runImport = (killAt?: RegExp) =>
      new Promise<{ code: number | string; stderr: string; killed: boolean }>((resolve) => {
        const p = spawn(process.execPath, ["--import", "tsx", "scripts/import.ts", csv, "--resource-id", "imported", "--progress"], {
          cwd: ROOT,
          env: { ...process.env, DATASTORE_DB: dbFile },
          stdio: ["ignore", "pipe", "pipe"],
        });
        let stderr = "";
        let killed = false;
        p.stderr.on("data", (c: Buffer) => {
          stderr += c.toString();
          if (killAt && !killed && killAt.test(stderr)) {
            killed = true;
            p.kill("SIGKILL");
          }
        });
        p.on("exit", (code, signal) => resolve({ code: code ?? signal ?? -1, stderr, killed }));
      });

    for (const phase of [/^loading/m, /^indexing/m]) {
      // The import and the server die together, mid-way.
      const imported = runImport(phase);
      const result = await imported;
      await server.kill();
      expect(result.killed, result.stderr).toBe(true);
      server = await serve(dbFile);
      expect(integrityCheck(dbFile)).toBe("ok");
      expect((await api(server, "resource_show", { id: "imported" })).status).toBe(404);
      expect(same(snapshot(dbFile, keep), keepBefore)).toBe(true);
      // No table of the half-done import is left behind.
      expect(orphanTables(dbFile)).toEqual([]);
    }
    const done = await runImport();
    expect(done.code, done.stderr).toBe(0);
    const info = await api(server, "datastore_info", { id: "imported" });
    expect(info.body.result.meta.count).toBe(ROWS);
    expect(integrityCheck(dbFile)).toBe("ok");
  }, 180_000);
});

describe.skipIf(isPostgres)("start-up with a database it cannot use: one clear message, exit 1", () => {
  /** Root may write anywhere: run as nobody to meet permissions (where we are root). */
  const asRoot = process.getuid?.() === 0;
  const unprivileged = asRoot ? { uid: 65534, gid: 65534 } : {};
  // Nobody must be able to read the checkout and the build; a private checkout cannot test this.
  const nobodyCanServe =
    !asRoot ||
    spawnSync(process.execPath, ["-e", `require(${JSON.stringify(path.join(ROOT, "node_modules", "next", "package.json"))})`], { ...unprivileged, cwd: ROOT }).status === 0;
  const permissionTest = nobodyCanServe ? it : it.skip;
  if (!nobodyCanServe) console.warn("faults: skipping the permission tests: user nobody cannot read this checkout");

  it("a file that is not SQLite", async () => {
    const file = path.join(dir, "garbage.db");
    fs.writeFileSync(file, Buffer.alloc(64 * 1024, 0x5a));
    await startFails(file, /is not a SQLite database/);
  });

  it("a database with damaged pages", async () => {
    const file = path.join(dir, "damaged.db");
    await datastoreFile(file, 5000);
    // The rows are in the resource's group file (lib/datastore/sqlite/groups.ts), which the scan reads too.
    const fd = fs.openSync(groupFile(file, 1), "r+");
    fs.writeSync(fd, Buffer.alloc(4096 * 40, 0xa5), 0, 4096 * 40, 4096 * 100);
    fs.closeSync(fd);
    // The page scan reads the whole file, so it runs while the server serves, and stops it.
    await startFails(file, /is corrupt .*Restore it from a backup/, {}, /stopping/);
  });

  it("a directory that cannot be created", async () => {
    const blocker = path.join(dir, "not-a-directory");
    fs.writeFileSync(blocker, "");
    await startFails(path.join(blocker, "data", "x.db"), /cannot create or open the database/);
  });

  permissionTest("a read-only directory", async () => {
    const ro = path.join(dir, "read-only-dir");
    fs.mkdirSync(ro, { mode: 0o555 });
    fs.chmodSync(ro, 0o555);
    await startFails(path.join(ro, "x.db"), /cannot create or open the database/, unprivileged);
  });

  permissionTest("a read-only database file", async () => {
    const rw = path.join(dir, "writable-dir");
    fs.mkdirSync(rw, { mode: 0o777 });
    fs.chmodSync(rw, 0o777);
    const file = path.join(rw, "ro.db");
    await datastoreFile(file, 1);
    fs.chmodSync(file, 0o444);
    await startFails(file, /is read-only/, unprivileged);
  });

  it("a missing directory is created, and the server starts", async () => {
    const file = path.join(dir, "new", "nested", "x.db");
    expect(fs.existsSync(path.dirname(file))).toBe(false);
    const server = await serve(file);
    expect(fs.existsSync(file)).toBe(true);
    expect(integrityCheck(file)).toBe("ok");
    expect((await api(server, "resource_search", {})).body.result).toEqual({ count: 0, results: [] });
    await server.stop();
  });
});

describe.skipIf(isPostgres)("npm run backup while the server takes writes", () => {
  it("makes a consistent copy holding every write acknowledged before it began", async () => {
    const dbFile = path.join(dir, "backup-source.db");
    const server = await serve(dbFile);
    const id = (await api(server, "datastore_create", { resource: { name: "busy" }, fields: [{ id: "k", type: "int" }, { id: "v", type: "text" }], primary_key: "k" })).body.result.resource_id;
    for (let from = 0; from < 60_000; from += 20_000) {
      const records = Array.from({ length: 20_000 }, (_, i) => ({ k: from + i, v: "x".repeat(200) }));
      await api(server, "datastore_upsert", { resource_id: id, method: "insert", records });
    }
    const acked: { k: number; at: number }[] = [];
    let next = 1_000_000;
    let stop = false;
    const writer = async () => {
      while (!stop) {
        const ks = Array.from({ length: 20 }, () => next++);
        const res = await api(server, "datastore_upsert", { resource_id: id, records: ks.map((k) => ({ k, v: "live" })) });
        if (res.status === 200) for (const k of ks) acked.push({ k, at: Date.now() });
      }
    };
    const writers = [writer(), writer(), writer()];
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    const out = path.join(dir, "copy.db");
    const backup = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const p = spawn(process.execPath, ["--import", "tsx", "scripts/backup.ts", out], { cwd: ROOT, env: { ...process.env, DATASTORE_DB: dbFile } });
      let output = "";
      p.stdout.on("data", (c: Buffer) => (output += c.toString()));
      p.stderr.on("data", (c: Buffer) => (output += c.toString()));
      p.on("exit", (code) => resolve({ code, output }));
    });
    await new Promise((r) => setTimeout(r, 300));
    stop = true;
    await Promise.all(writers);
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toMatch(/integrity ok/);
    const writesDuring = acked.filter((a) => a.at >= started).length;
    expect(writesDuring).toBeGreaterThan(0);

    expect(integrityCheck(out)).toBe("ok");
    const copy = snapshot(out, id);
    for (const a of acked) if (a.at < started) expect(copy.has(a.k)).toBe(true);
    // The copy serves, its catalog and table from the same instant.
    const restored = await serve(out);
    expect(await catalogCount(restored, id)).toBe(copy.size);
    await restored.stop();
    await server.stop();
  }, 120_000);
});

// ------------------------------------------------------------------------------- PostgreSQL

describe.runIf(isPostgres)("PostgreSQL: the database server fails under the app", () => {
  // A database of these tests' own: cutting its connections touches no other suite's.
  const sharedUrl = process.env.DATASTORE_DATABASE_URL!;
  let db: string;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const records = (from: number, n: number, tag: string) => Array.from({ length: n }, (_, i) => ({ k: from + i, v: tag, n: from + i }));
  const fields = [
    { id: "k", type: "int" },
    { id: "v", type: "text" },
    { id: "n", type: "int" },
  ];
  const write = (resource_id: string, recs: Record<string, unknown>[], method = "upsert") => call("datastore_upsert", { resource_id, method, records: recs }, { token: API_ADMIN });
  const count = async (id: string) => (await call("datastore_search", { resource_id: id, limit: 0 })).body.result.total as number;
  const schema = () => (currentStore() as { schema: string }).schema;

  /** Waits until a request of the app's waits for the lock `lockResourceTables` holds. */
  async function waitingForLock(): Promise<void> {
    for (let i = 0; i < 200; i++) {
      if ((await appConnectionsWaiting(db)) > 0) return;
      await sleep(25);
    }
    throw new Error("no request of the app's came to wait for the locked table within 5 s");
  }

  /** A failed answer in CKAN's envelope: a 409 (nothing done, say why) or a 5xx, never a hang. */
  function failedCleanly(res: Awaited<ReturnType<typeof call>>): void {
    expect([409, 503], JSON.stringify(res.body)).toContain(res.status);
    expect(res.body.success).toBe(false);
    expect(typeof res.body.error.__type).toBe("string");
  }

  beforeAll(async () => {
    db = await createDatabase("faults");
    process.env.DATASTORE_DATABASE_URL = withDatabase(sharedUrl, db);
  });

  afterAll(async () => {
    await closeDatastore();
    process.env.DATASTORE_DATABASE_URL = sharedUrl;
  });

  it("idle connections cut by the server: the next request is served", async () => {
    freshDb();
    const id = await createResource({ fields, primary_key: "k", records: records(0, 100, "base") });
    expect(await count(id)).toBe(100);
    expect(await terminateAppConnections(db)).toBeGreaterThan(0);
    await sleep(200); // the pool hears of it
    expect(await count(id)).toBe(100);
    expect((await write(id, records(100, 10, "after"))).status).toBe(200);
    expect(await count(id)).toBe(110);
  });

  it("a search whose connection is cut mid-request answers a clear error, and the next one is served", async () => {
    freshDb();
    const id = await createResource({ fields, primary_key: "k", records: records(0, 100, "base") });
    const lock = await lockResourceTables(db, schema());
    let res: Awaited<ReturnType<typeof call>>;
    try {
      const pending = call("datastore_search", { resource_id: id, q: "base", limit: 5 });
      await waitingForLock();
      expect(await terminateAppConnections(db)).toBeGreaterThan(0);
      // A read whose connection died runs once more on a fresh one (postgres/engine.ts
      // guardRead), which waits for the lock in turn: cut that one too.
      await sleep(200);
      await waitingForLock();
      expect(await terminateAppConnections(db)).toBeGreaterThan(0);
      res = await pending;
    } finally {
      await lock.release();
    }
    failedCleanly(res);
    expect(await count(id)).toBe(100);
  });

  it("a write whose connection is cut mid-request writes nothing, and the next write succeeds", async () => {
    freshDb();
    const id = await createResource({ fields, primary_key: "k", records: records(0, 1000, "base") });
    const before = await storeChecksum();
    const lock = await lockResourceTables(db, schema());
    let res: Awaited<ReturnType<typeof call>>;
    try {
      const pending = write(id, records(500, 1000, "cut")); // updates 500 rows, inserts 500
      await waitingForLock();
      expect(await terminateAppConnections(db)).toBeGreaterThan(0);
      res = await pending;
    } finally {
      await lock.release();
    }
    failedCleanly(res);
    expect(await storeChecksum()).toBe(before);
    expect((await write(id, records(500, 1000, "again"))).status).toBe(200);
    expect(await count(id)).toBe(1500);
    const info = await call("datastore_info", { id });
    expect(info.body.result.meta.count).toBe(1500);
  });

  it("a large upsert cut at any moment is all there or not at all", async () => {
    freshDb();
    const BASE = 4_000;
    const TOTAL = 12_000;
    const id = await createResource({ fields, primary_key: "k", records: records(0, BASE, "base") });
    const calibration = await createResource({ fields, primary_key: "k", records: records(0, BASE, "base") });
    let took = 0;
    for (const tag of ["warm-up", "timed"]) {
      const t0 = Date.now();
      expect((await write(calibration, records(0, TOTAL, tag))).status).toBe(200);
      took = Date.now() - t0;
    }
    /** The rows as key → "v|n", and the count the catalog claims. */
    const snapshot = async () => {
      const r = (await call("datastore_search", { resource_id: id, limit: 32_000, sort: "k", fields: ["k", "v", "n"] })).body.result;
      return { rows: new Map<number, string>(r.records.map((x: { k: number; v: string; n: number }) => [x.k, `${x.v}|${x.n}`])), total: r.total as number };
    };
    const outcomes: string[] = [];
    for (const [i, fraction] of [0.2, 0.5, 0.8].entries()) {
      const before = await snapshot();
      const tag = `attempt ${i}`;
      const pending = write(id, records(0, TOTAL, tag));
      await sleep(took * fraction);
      await terminateAppConnections(db);
      const res = await pending;
      await sleep(100);
      const now = await snapshot();
      expect(now.total).toBe(now.rows.size);
      const after: State = new Map(records(0, TOTAL, tag).map((r) => [r.k, `${r.v}|${r.n}`]));
      const outcome = same(now.rows, before.rows) ? "before" : same(now.rows, after) ? "after" : "neither";
      outcomes.push(`${Math.round(took * fraction)} ms: ${res.status} ${outcome}`);
      expect(outcome, `cut ${Math.round(took * fraction)} ms into a ${took} ms upsert`).not.toBe("neither");
      // An acknowledged write is all there (a failed answer may come after the commit, though).
      if (res.status === 200) expect(outcome).toBe("after");
    }
    console.log(`upsert of ${TOTAL} rows takes ${took} ms; connections cut at ${outcomes.join(", ")}`);
  }, 120_000);

  it("a statement past statement_timeout answers 409 query took too long, and the next one is served", async () => {
    process.env.DATASTORE_QUERY_TIMEOUT_MS = "500";
    try {
      freshDb(); // a new engine, whose connections take the timeout
      const id = await createResource({ fields, records: records(0, 100, "base") });
      const lock = await lockResourceTables(db, schema());
      const t0 = Date.now();
      let res: Awaited<ReturnType<typeof call>> | "no answer";
      try {
        res = await Promise.race([call("datastore_search", { resource_id: id, filters: { v: "base" }, limit: 5 }), sleep(8_000).then(() => "no answer" as const)]);
      } finally {
        await lock.release();
      }
      expect(res, "the search waited on the locked table past 8 s").not.toBe("no answer");
      if (res === "no answer") return;
      expect(res.status, JSON.stringify(res.body)).toBe(409);
      expect(res.body.error).toEqual({ __type: "Validation Error", query: [expect.stringMatching(/^Query took too long/)] });
      expect(Date.now() - t0).toBeLessThan(5_000);
      expect(await count(id)).toBe(100);
    } finally {
      delete process.env.DATASTORE_QUERY_TIMEOUT_MS;
    }
  });

  it("a write that fails midway in the database writes nothing", async () => {
    freshDb();
    const id = await createResource({ fields, primary_key: "k", records: records(0, 1000, "base") });
    const before = await storeChecksum();
    // 5,000 new rows, the last repeating the first's key: PostgreSQL finds it at the end.
    const batch = [...records(1000, 5000, "new"), { k: 1000, v: "again", n: 0 }];
    const res = await write(id, batch, "insert");
    expect(res.status).toBe(409);
    expect(res.body.error.records_row ?? res.body.error.constraints).toBeDefined();
    expect(await storeChecksum()).toBe(before);
    expect(await count(id)).toBe(1000);
  });
});

describe.runIf(isPostgres)("PostgreSQL: start-up with a database it cannot use: one clear message, exit 1", () => {
  const url = () => process.env.DATASTORE_DATABASE_URL!;

  it("a server that does not answer", async () => {
    const closed = new URL(url());
    closed.port = "1"; // nothing listens there
    await startFails(path.join(dir, "unused.db"), /PostgreSQL|127\.0\.0\.1/, { env: { DATASTORE_DATABASE_URL: closed.toString() } });
  });

  it("a database that does not exist", async () => {
    await startFails(path.join(dir, "unused.db"), /no_such_database/, { env: { DATASTORE_DATABASE_URL: withDatabase(url(), "no_such_database") } });
  });
});
