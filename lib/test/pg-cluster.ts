// A throwaway PostgreSQL cluster for tests, from the installed binaries (Debian's `postgresql`):
// initdb in a temporary directory, its own loopback port, no Unix socket, trust on 127.0.0.1.
// The app connects as role `app`, which owns database `app` and is not a superuser, as a real
// deployment runs. As root, initdb and postgres run as the `postgres` OS user (initdb refuses
// root). A replica of a running cluster is one pg_basebackup -R away (startReplica).
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";

export interface PgCluster {
  port: number;
  /** The data directory (inside a temporary directory that stop() removes). */
  dataDir: string;
  /** The superuser `postgres`, database `postgres`. */
  superUrl: string;
  /** Role `app` (not a superuser) on database `db` (default `app`, which `app` owns). */
  url(db?: string): string;
  /** Restarts the server on the same port (pg_ctl restart -m fast: sessions are ended, a
   *  shutdown checkpoint written); resolves once it accepts connections again. Runs pg_ctl as a
   *  child process, so the caller's event loop goes on meanwhile. */
  restart(): Promise<void>;
  /** Stops the server at once (pg_ctl stop -m immediate) and removes its directory. */
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** postgresql.conf settings added to (and overriding) the defaults below. */
  settings?: Record<string, string | number>;
}

/** Cheap enough to keep on every cluster: a test cluster can always be a primary. */
const DEFAULT_SETTINGS: Record<string, string | number> = {
  listen_addresses: "'127.0.0.1'",
  unix_socket_directories: "''",
  fsync: "off",
  synchronous_commit: "off",
  full_page_writes: "off",
  wal_level: "replica",
  max_wal_senders: 5,
  max_connections: 200,
  shared_buffers: "'64MB'",
  log_min_messages: "warning",
};

const HBA = ["local all all trust", "host all all 127.0.0.1/32 trust", "host replication all 127.0.0.1/32 trust", ""].join("\n");

/** The bin directory holding initdb: PG_BINDIR if set, else pg_config's on PATH, else the
 *  newest /usr/lib/postgresql/N/bin. */
export function pgBinDir(): string | undefined {
  const chosen = process.env.PG_BINDIR;
  if (chosen !== undefined) return fs.existsSync(path.join(chosen, "initdb")) ? chosen : undefined;
  const r = spawnSync("pg_config", ["--bindir"], { encoding: "utf8" });
  const fromPath = r.status === 0 ? r.stdout.trim() : "";
  if (fromPath && fs.existsSync(path.join(fromPath, "initdb"))) return fromPath;
  const root = "/usr/lib/postgresql";
  const versions = fs.existsSync(root) ? fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, "bin", "initdb"))) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(root, versions[0], "bin") : undefined;
}

/** The OS user postgres runs as: `postgres` when we are root (initdb refuses root), else us. */
function runAs(): { uid: number; gid: number; name: string } | null | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const r = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
  const g = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
  return r.status === 0 && g.status === 0 ? { uid: Number(r.stdout), gid: Number(g.stdout), name: "postgres" } : null;
}

/** Why no cluster can be started here, or undefined when one can. */
export function pgUnavailableReason(): string | undefined {
  if (!pgBinDir()) {
    const where = process.env.PG_BINDIR !== undefined ? `in PG_BINDIR=${process.env.PG_BINDIR}` : "from pg_config --bindir or in /usr/lib/postgresql/*/bin";
    return `no initdb ${where}; install Debian's postgresql`;
  }
  if (runAs() === null) return "running as root and there is no `postgres` OS user to run initdb as";
  return undefined;
}

export function pgAvailable(): boolean {
  return pgUnavailableReason() === undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** Runs a PostgreSQL binary as the cluster's OS user, in `cwd` (which that user can read). */
function run(bin: string, args: string[], cwd: string): void {
  const user = runAs();
  const exe = path.join(pgBinDir()!, bin);
  const [cmd, argv] = user ? ["runuser", ["-u", user.name, "--", exe, ...args]] : [exe, args];
  const r = spawnSync(cmd, argv, { cwd, encoding: "utf8", env: { ...process.env, LC_ALL: "C.UTF-8", PGTZ: "UTC" } });
  if (r.status !== 0) throw new Error(`${bin} ${args.join(" ")} failed (${r.error?.message ?? `exit ${r.status}`}):\n${r.stdout}${r.stderr}`);
}

/** As run, without blocking the event loop. */
function runAsync(bin: string, args: string[], cwd: string): Promise<void> {
  const user = runAs();
  const exe = path.join(pgBinDir()!, bin);
  const [cmd, argv] = user ? ["runuser", ["-u", user.name, "--", exe, ...args]] : [exe, args];
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, argv, { cwd, env: { ...process.env, LC_ALL: "C.UTF-8", PGTZ: "UTC" }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    p.stdout!.on("data", (c: Buffer) => (out += c.toString()));
    p.stderr!.on("data", (c: Buffer) => (out += c.toString()));
    p.on("error", reject);
    p.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${bin} ${args.join(" ")} failed (exit ${code}):\n${out}`))));
  });
}

/** A new temporary directory the cluster's OS user owns. */
function ownedTempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const user = runAs();
  if (user) fs.chownSync(dir, user.uid, user.gid);
  return dir;
}

function conf(settings: Record<string, string | number>): string {
  return `\n# lib/test/pg-cluster.ts\n${Object.entries(settings).map(([k, v]) => `${k} = ${v}`).join("\n")}\n`;
}

const live = new Set<{ dataDir: string; dir: string }>();
let exitHook = false;

/** Starts the server in `dir`/data on a free port (tried again if another process took it). */
async function launch(dir: string, dataDir: string): Promise<PgCluster> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    fs.appendFileSync(path.join(dataDir, "postgresql.conf"), conf({ port }));
    try {
      run("pg_ctl", ["start", "-w", "-t", "60", "-D", dataDir, "-l", path.join(dir, "server.log")], dir);
    } catch (e) {
      lastError = new Error(`${(e as Error).message}\n${readLog(dir)}`);
      continue;
    }
    const entry = { dataDir, dir };
    live.add(entry);
    if (!exitHook) {
      exitHook = true; // a test run that dies leaves no postgres behind
      process.on("exit", () => {
        for (const c of live) stopNow(c);
      });
    }
    return {
      port,
      dataDir,
      superUrl: `postgresql://postgres@127.0.0.1:${port}/postgres`,
      url: (db = "app") => `postgresql://app@127.0.0.1:${port}/${db}`,
      async restart() {
        await runAsync("pg_ctl", ["restart", "-w", "-t", "60", "-m", "fast", "-D", dataDir, "-l", path.join(dir, "server.log")], dir);
      },
      async stop() {
        live.delete(entry);
        stopNow(entry);
      },
    };
  }
  throw lastError;
}

function readLog(dir: string): string {
  try {
    return fs.readFileSync(path.join(dir, "server.log"), "utf8").split("\n").slice(-20).join("\n");
  } catch {
    return "";
  }
}

function stopNow({ dataDir, dir }: { dataDir: string; dir: string }): void {
  try {
    run("pg_ctl", ["stop", "-w", "-m", "immediate", "-D", dataDir], dir);
  } catch {
    /* already stopped */
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Runs SQL statements one after another on `url`. */
export async function sql(url: string, ...statements: string[]): Promise<pg.QueryResult[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const results: pg.QueryResult[] = [];
    for (const s of statements) results.push(await client.query(s));
    return results;
  } finally {
    await client.end();
  }
}

/** A new cluster with role `app` owning database `app`. */
export async function startCluster(opts: ClusterOptions = {}): Promise<PgCluster> {
  const reason = pgUnavailableReason();
  if (reason) throw new Error(`PostgreSQL binaries not found (${reason})`);
  const dir = ownedTempDir("pg-test-");
  const dataDir = path.join(dir, "data");
  try {
    run("initdb", ["-D", dataDir, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C.utf8", "--no-sync", "--no-instructions"], dir);
    fs.writeFileSync(path.join(dataDir, "pg_hba.conf"), HBA);
    fs.appendFileSync(path.join(dataDir, "postgresql.conf"), conf({ ...DEFAULT_SETTINGS, ...opts.settings }));
    const cluster = await launch(dir, dataDir);
    await sql(cluster.superUrl, "CREATE ROLE app LOGIN", "CREATE DATABASE app OWNER app");
    return cluster;
  } catch (e) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

/** A streaming replica of `primary` (pg_basebackup -R) on a port of its own, read-only. */
export async function startReplica(primary: PgCluster, opts: ClusterOptions = {}): Promise<PgCluster> {
  const dir = ownedTempDir("pg-replica-");
  const dataDir = path.join(dir, "data");
  try {
    run("pg_basebackup", ["-h", "127.0.0.1", "-p", String(primary.port), "-U", "postgres", "-D", dataDir, "-R", "-X", "stream", "-c", "fast", "--no-sync"], dir);
    if (opts.settings) fs.appendFileSync(path.join(dataDir, "postgresql.conf"), conf(opts.settings));
    return await launch(dir, dataDir);
  } catch (e) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}
