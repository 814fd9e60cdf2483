// `npm run fuzz -- [--seconds N | --runs N] [--seed N] [--server | --url URL (--db FILE | --schema S) --admin TOKEN]`:
// the long fuzz run. Generates malformed and hostile requests (lib/test/arbitraries.ts) and
// judges every answer (lib/test/fuzz.ts): no 5xx, the contract's envelope, a rejected write
// leaves the database checksum unchanged, no private data or secret leaks. In-process by
// default; --server starts the built server on a temporary database and fuzzes it over HTTP;
// --url fuzzes a server you started (its DATASTORE_DB file is read for the checksum; on
// PostgreSQL, with DATASTORE_DATABASE_URL set here too, its DATASTORE_PG_SCHEMA is: --schema).
// With DATASTORE_DATABASE_URL set, the in-process and --server runs use a new schema there.
// Prints the figures and every failing request; exits 1 on any failure.
import fc from "fast-check";
import path from "node:path";
import { parseArgs } from "node:util";
import { fuzzCase, type FuzzCase } from "../lib/test/arbitraries";
import { createWorld, httpTarget, newStats, preview, pruneWorld, runCase, type Target } from "../lib/test/fuzz";
import { ensureBuilt, startServer, tempDir, type RunningServer } from "../lib/test/server";

const { values } = parseArgs({
  options: {
    seconds: { type: "string" },
    runs: { type: "string" },
    seed: { type: "string" },
    server: { type: "boolean" },
    url: { type: "string" },
    db: { type: "string" },
    schema: { type: "string" },
    admin: { type: "string" },
  },
});

const seconds = Number(values.seconds ?? (values.runs ? Infinity : 300));
const runs = Number(values.runs ?? Infinity);
const seed = Number(values.seed ?? Date.now() % 2 ** 31);
const ADMIN = values.admin ?? process.env.DATASTORE_ADMIN_TOKEN ?? "fuzz-admin-token";

async function target(): Promise<{ t: Target; server?: RunningServer; where: string }> {
  if (values.url) {
    const databaseUrl = process.env.DATASTORE_DATABASE_URL?.trim();
    if (databaseUrl) {
      if (!values.schema) throw new Error("--url with DATASTORE_DATABASE_URL needs --schema (the server's DATASTORE_PG_SCHEMA, read for the checksum)");
      return { t: httpTarget(values.url, { databaseUrl, schema: values.schema }), where: values.url };
    }
    if (!values.db) throw new Error("--url needs --db (the server's DATASTORE_DB file, read for the checksum)");
    return { t: httpTarget(values.url, path.resolve(values.db)), where: values.url };
  }
  if (values.server) {
    await ensureBuilt();
    const dbFile = path.join(tempDir("datastore-fuzz-"), "fuzz.db");
    const server = await startServer({ dbFile, adminToken: ADMIN });
    return { t: httpTarget(server.url, server.store), server, where: `${server.url} (built server, ${JSON.stringify(server.store)})` };
  }
  const { currentStore, freshDb } = await import("../lib/test/api");
  const { inProcessTarget } = await import("../lib/test/fuzz");
  const store = freshDb();
  process.env.DATASTORE_ADMIN_TOKEN = ADMIN;
  return { t: await inProcessTarget(currentStore()), where: `in-process (${store})` };
}

async function main() {
  const { t, server, where } = await target();
  const world = await createWorld(t, ADMIN);
  const stats = newStats();
  const started = Date.now();
  const until = started + seconds * 1000;
  const slowest: { ms: number; c: FuzzCase }[] = [];
  console.log(`fuzz: ${where}, seed ${seed}, ${Number.isFinite(runs) ? `${runs} runs` : `${seconds} s`}`);
  let batch = 0;
  let lastReport = started;
  outer: while (true) {
    for (const c of fc.sample(fuzzCase, { numRuns: 200, seed: seed + batch })) {
      if (stats.cases >= runs || Date.now() >= until) break outer;
      const t0 = performance.now();
      let problems: string[];
      try {
        problems = await runCase(t, world, c, stats);
      } catch (e) {
        // The request itself failed (connection reset, timeout): as bad as a 500.
        problems = [`no answer: ${(e as Error).message}`];
        stats.failures.push({ problems, sent: preview(c), answer: "" });
      }
      const ms = performance.now() - t0;
      slowest.push({ ms, c });
      slowest.sort((a, b) => b.ms - a.ms).splice(5);
      if (problems.length) console.log(`FAIL (seed ${seed}, batch ${batch}): ${problems.join("; ")}\n  case: ${preview(c)}\n  ${stats.failures.at(-1)?.answer.slice(0, 300)}`);
      if (stats.cases % 500 === 0) await pruneWorld(t, world);
      if (Date.now() - lastReport > 30_000) {
        lastReport = Date.now();
        console.log(`  ${stats.cases} cases, ${stats.failures.length} failures, ${((Date.now() - started) / 1000).toFixed(0)} s`);
      }
    }
    batch++;
  }
  const secs = (Date.now() - started) / 1000;
  console.log(`\nfuzz: ${stats.cases} cases in ${secs.toFixed(1)} s (${(stats.cases / secs).toFixed(0)}/s), seed ${seed}`);
  console.log(`  statuses: ${Object.entries(stats.byStatus).map(([s, n]) => `${s}×${n}`).join(", ")}`);
  console.log(`  actions: ${Object.entries(stats.byAction).sort((a, b) => b[1] - a[1]).map(([a, n]) => `${a}×${n}`).join(", ")}`);
  console.log(`  world rebuilt after destructive cases: ${stats.rebuilds}`);
  console.log(`  slowest: ${slowest.map((s) => `${s.ms.toFixed(0)} ms (${s.c.action})`).join(", ")}`);
  if (slowest[0]) console.log(`  slowest case: ${preview(slowest[0].c)}`);
  console.log(`  failures: ${stats.failures.length}`);
  for (const f of stats.failures.slice(0, 20)) console.log(`  - ${f.problems.join("; ")}\n    ${f.sent}\n    → ${f.answer}`);
  await t.close?.();
  if (server) {
    await server.stop();
    (await import("node:fs")).rmSync(path.dirname(server.dbFile), { recursive: true, force: true });
    const logged = server.output().match(/internal error[^\n]*/g) ?? [];
    console.log(`  server log: ${logged.length} internal errors`);
  }
  process.exit(stats.failures.length ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
