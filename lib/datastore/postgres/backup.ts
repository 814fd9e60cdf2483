// A backup with PostgreSQL's own tool: `pg_dump --format=custom` of the engine's schema (the
// catalog, tokens and every resource's table), one consistent snapshot taken while the server
// serves; restore with pg_restore. Without pg_dump on this machine, the error says the command
// to run where it is installed. The password never appears on a command line: pg_dump gets it
// from the environment.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { DatastoreUnavailable } from "../errors";
import { describeUrl } from "./connection";

/** The URL without its password, and the password (for PGPASSWORD). */
function splitPassword(url: string): { url: string; password?: string } {
  try {
    const u = new URL(url);
    const password = u.password ? decodeURIComponent(u.password) : undefined;
    u.password = "";
    return { url: u.toString(), password };
  } catch {
    return { url };
  }
}

/** pg_dump's pattern for exactly this schema name (double quotes make it literal). */
function schemaPattern(schema: string): string {
  return `"${schema.replace(/"/g, '""')}"`;
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export async function pgDump(databaseUrl: string, schema: string, target: string): Promise<string> {
  const out = path.resolve(target);
  if (fs.existsSync(out)) throw new DatastoreUnavailable(`${out} exists; choose a new file`);
  const { url, password } = splitPassword(databaseUrl);
  const partial = `${out}.partial`;
  const args = ["--format=custom", `--schema=${schemaPattern(schema)}`, `--file=${partial}`, `--dbname=${url}`];
  const started = Date.now();
  const env = { ...process.env, ...(password ? { PGPASSWORD: password } : {}) };
  const result = await new Promise<{ code: number | null; stderr: string; missing: boolean }>((resolve) => {
    const child = spawn("pg_dump", args, { env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", (e: NodeJS.ErrnoException) => resolve({ code: null, stderr: e.message, missing: e.code === "ENOENT" }));
    child.on("close", (code) => resolve({ code, stderr, missing: false }));
  });
  if (result.missing) {
    const command = ["pg_dump", ...args.slice(0, 2), `--file=${out}`, `--dbname=${url}`].map(shellQuote).join(" ");
    throw new DatastoreUnavailable(
      `pg_dump was not found on this machine. Run it where PostgreSQL's client tools are installed (the same major version as the server or newer)` +
        `${password ? ", with the password in PGPASSWORD" : ""}:\n  ${command}`,
    );
  }
  if (result.code !== 0) {
    fs.rmSync(partial, { force: true });
    throw new DatastoreUnavailable(`pg_dump of schema "${schema}" at ${describeUrl(databaseUrl)} failed: ${result.stderr.trim() || `exit code ${result.code}`}`);
  }
  fs.renameSync(partial, out); // a failed dump never leaves a file that looks complete
  const mb = (fs.statSync(out).size / 1e6).toFixed(1);
  return `Backed up schema "${schema}" at ${describeUrl(databaseUrl)} to ${out} with pg_dump (${mb} MB, ${((Date.now() - started) / 1000).toFixed(1)} s); restore with pg_restore --dbname=URL ${out}.`;
}
