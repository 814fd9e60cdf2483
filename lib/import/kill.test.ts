// The importer's all-or-nothing promise, tested for real: the CLI runs as a child process on
// a generated file and is killed (SIGKILL, no chance to clean up) while loading and while
// indexing; the database must then be exactly as before, and intact.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { openEngine } from "../datastore/open";
import { checksumFile, integrityCheck } from "../datastore/sqlite/test-support";

const ROWS = 300_000;
const CLI = path.resolve("scripts/import.ts");

let dir: string;
let csv: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "import-kill-"));
  csv = path.join(dir, "big.csv");
  const lines = ["n,word,when,amount"];
  const words = ["alpha", "beta", "gamma", "delta"];
  for (let i = 0; i < ROWS; i++) lines.push(`${i},${words[i % 4]} ${i},2024-01-${String((i % 28) + 1).padStart(2, "0")},${i % 1000}.5`);
  fs.writeFileSync(csv, lines.join("\n") + "\n");
});

/** A database holding one resource with 3 rows; returns its file. */
async function seeded(): Promise<string> {
  const file = path.join(fs.mkdtempSync(path.join(dir, "db-")), "ds.db");
  const engine = await openEngine({ file, readWorkers: 0 });
  await engine.createResource({ id: "existing", name: "existing", description: "", private: false }, [
    { id: "n", type: "int4" },
    { id: "word", type: "text" },
    { id: "when", type: "date" },
    { id: "amount", type: "numeric" },
  ]);
  await engine.write("existing", [1, 2, 3].map((n) => ({ n, word: `w${n}`, when: "2020-01-01", amount: n })), "insert");
  await engine.close();
  return file;
}

/** Everything the database holds (schema, catalog, every table's rows), and whether it is sound. */
function state(file: string) {
  return { integrity: integrityCheck(file), checksum: checksumFile(file) };
}

/** Runs the CLI and sends `signal` once a progress line of `phase` appears on stderr. */
function runAndSignal(dbFile: string, args: string[], phase: string, signal: NodeJS.Signals) {
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string; stdout: string; sentAt: string }>((resolve, reject) => {
    // One process (tsx as a loader, not its CLI wrapper), so the signal reaches the importer itself.
    const child = spawn(process.execPath, ["--import", "tsx", CLI, csv, "--progress", ...args], {
      env: { ...process.env, DATASTORE_DB: dbFile },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    let stdout = "";
    let sentAt = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => {
      stderr += d;
      // A progress line with rows done and some left: the transaction is open and half full.
      const line = stderr.split("\n").find((l) => l.startsWith(phase) && !l.includes("100%") && / [1-9][\d,]* rows /.test(l));
      if (line && !sentAt) {
        sentAt = line;
        child.kill(signal);
      }
    });
    child.on("error", reject);
    child.on("exit", (code, sig) => resolve({ code, signal: sig, stderr, stdout, sentAt }));
  });
}

describe("a killed import", () => {
  it("leaves the database as it was when killed while loading a new resource", async () => {
    const file = await seeded();
    const before = state(file);
    const run = await runAndSignal(file, ["--name", "big"], "loading", "SIGKILL");
    expect(run.signal).toBe("SIGKILL");
    expect(run.sentAt).toMatch(/^loading .* rows/);
    expect(run.stdout).toBe(""); // no summary: it never finished
    const after = state(file);
    expect(after.integrity).toBe("ok");
    expect(after).toEqual(before);
  });

  it("leaves an existing resource as it was when killed while indexing an append", async () => {
    const file = await seeded();
    const before = state(file);
    const run = await runAndSignal(file, ["--resource-id", "existing", "--append"], "indexing", "SIGKILL");
    expect(run.signal).toBe("SIGKILL");
    expect(run.sentAt).toMatch(/^indexing/);
    expect(state(file)).toEqual(before);
  });

  it("rolls back on Ctrl-C and says so", async () => {
    const file = await seeded();
    const before = state(file);
    const run = await runAndSignal(file, ["--name", "big"], "loading", "SIGINT");
    expect(run.code).toBe(130);
    expect(run.stderr).toContain("import interrupted: nothing was loaded");
    expect(state(file)).toEqual(before);
  });
});
