// Faults against the built server (lib/server/main.ts as a child process): SIGKILL in the middle of
// a large upsert and of an import, then a restart that finds the database sound and the data
// exactly as before or after the write; start-up with a database it cannot use (one clear
// message, exit 1, no crash loop); `npm run backup` while writes go on. The full disk is
// simulated in-process (lib/http/disk-full.test.ts).
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openEngine } from "../datastore/open";
import { integrityCheck, orphanTables, resourceRows } from "../datastore/sqlite/test-support";
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

describe("SIGKILL in the middle of a write, then a restart", () => {
  it("a large upsert is all there or not at all", async () => {
    const dbFile = path.join(dir, "upsert.db");
    let server = await serve(dbFile);
    const fields = [
      { id: "k", type: "int" },
      { id: "v", type: "text" },
      { id: "n", type: "int" },
    ];
    const BASE = 8_000;
    const TOTAL = 24_000;
    const ids: string[] = [];
    for (const name of ["target", "calibration"]) {
      const res = await api(server, "datastore_create", { resource: { name }, fields, primary_key: "k" });
      ids.push(res.body.result.resource_id);
      const records = Array.from({ length: BASE }, (_, k) => ({ k, v: "base", n: k }));
      expect((await api(server, "datastore_upsert", { resource_id: res.body.result.resource_id, method: "insert", records })).status).toBe(200);
    }
    const [target, calibration] = ids;
    // Updates every existing row and inserts twice as many: one transaction of 24,000 rows.
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
    for (const [i, fraction] of [0.3, 0.7, 0.95, 1.5].entries()) {
      const before = snapshot(dbFile, target);
      const tag = `attempt ${i}`;
      const after: State = new Map(before);
      for (let k = 0; k < TOTAL; k++) after.set(k, `${tag}|${k < BASE ? k + 1 : k}`);
      const request = fetch(`${server.url}/api/action/datastore_upsert`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: ADMIN },
        body: payload(target, tag),
      }).catch(() => null);
      await new Promise((r) => setTimeout(r, took * fraction));
      await server.kill();
      await request;
      server = await serve(dbFile);
      expect(integrityCheck(dbFile)).toBe("ok");
      const now = snapshot(dbFile, target);
      expect(await catalogCount(server, target)).toBe(now.size);
      const outcome = same(now, before) ? "before" : same(now, after) ? "after" : "neither";
      outcomes.push(`${Math.round(took * fraction)} ms: ${outcome}`);
      expect(outcome, `killed ${Math.round(took * fraction)} ms into a ${took} ms upsert`).not.toBe("neither");
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

describe("start-up with a database it cannot use: one clear message, exit 1", () => {
  /** Root may write anywhere: run as nobody to meet permissions (where we are root). */
  const asRoot = process.getuid?.() === 0;
  const unprivileged = asRoot ? { uid: 65534, gid: 65534 } : {};
  // Nobody must be able to read the checkout and the build; a private checkout cannot test this.
  const nobodyCanServe =
    !asRoot ||
    spawnSync(process.execPath, ["-e", `require(${JSON.stringify(path.join(ROOT, "node_modules", "next", "package.json"))})`], { ...unprivileged, cwd: ROOT }).status === 0;
  const permissionTest = nobodyCanServe ? it : it.skip;
  if (!nobodyCanServe) console.warn("faults: skipping the permission tests: user nobody cannot read this checkout");

  async function startFails(dbFile: string, message: RegExp, opts: { uid?: number; gid?: number } = {}) {
    const s = await startServer({ dbFile, adminToken: ADMIN, waitReady: false, ...opts });
    running.push(s);
    const code = await Promise.race([s.exited, new Promise((r) => setTimeout(() => r("still running after 30 s"), 30_000))]);
    if (code === "still running after 30 s") await s.kill();
    expect(code, s.output()).toBe(1);
    const said = s.output().split("\n").filter((l) => l.startsWith("datastore:"));
    expect(said, s.output()).toEqual([expect.stringMatching(message), expect.stringMatching(/not starting/)]);
    expect(s.output()).not.toMatch(/^\s+at /m); // a sentence, not a stack trace
  }

  it("a file that is not SQLite", async () => {
    const file = path.join(dir, "garbage.db");
    fs.writeFileSync(file, Buffer.alloc(64 * 1024, 0x5a));
    await startFails(file, /is not a SQLite database/);
  });

  it("a database with damaged pages", async () => {
    const file = path.join(dir, "damaged.db");
    await datastoreFile(file, 5000);
    const fd = fs.openSync(file, "r+");
    fs.writeSync(fd, Buffer.alloc(4096 * 40, 0xa5), 0, 4096 * 40, 4096 * 100);
    fs.closeSync(fd);
    await startFails(file, /is corrupt .*Restore it from a backup/);
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

describe("npm run backup while the server takes writes", () => {
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
