// What the audit trail costs datastore_upsert (issue 29's goal: at most 5% of upsert throughput):
// batches of 1,000 records through the action itself, with the audit entry recorded and with
// it left out (the same engine, its transaction's audit storage made a no-op), alternating in
// the same run so drift falls on both alike. In-process, on a fresh store: a SQLite file, or
// with --postgres a throwaway PostgreSQL cluster (lib/test/pg-cluster.ts):
//   npx tsx scripts/bench-audit.ts [--batches 40] [--postgres]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { TokenStore } from "../lib/auth/tokens";
import { datastoreCreate } from "../lib/datastore/actions/datastore-create";
import { datastoreUpsert } from "../lib/datastore/actions/datastore-upsert";
import type { ActionContext } from "../lib/datastore/context";
import type { AuditStorage, DatastoreEngine } from "../lib/datastore/engine";
import { openEngine } from "../lib/datastore/open";
import { startCluster } from "../lib/test/pg-cluster";

const { values: args } = parseArgs({ options: { batches: { type: "string", default: "40" }, postgres: { type: "boolean", default: false } } });
const BATCHES = Number(args.batches);
const BATCH = 1000;

const NO_AUDIT: AuditStorage = { record: async () => undefined, list: async () => [], prune: async () => 0 };

/** The engine with `audit` replaced, in its transactions too; everything else its own. */
function withAudit(engine: DatastoreEngine, audit: AuditStorage | null): DatastoreEngine {
  if (!audit) return engine;
  return new Proxy(engine, {
    get(target, key) {
      if (key === "audit") return audit;
      if (key === "transaction") return <T>(fn: (tx: DatastoreEngine) => Promise<T>) => target.transaction((tx) => fn(withAudit(tx, audit)));
      const v = Reflect.get(target, key) as unknown;
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}

async function main() {
  const cluster = args.postgres ? await startCluster() : null;
  const url = cluster?.url();
  const engine = url
    ? await openEngine({ databaseUrl: url, schema: "bench_audit" })
    : await openEngine({ file: path.join(fs.mkdtempSync(path.join(os.tmpdir(), "bench-audit-")), "b.db"), readWorkers: 0 });
  const user = { scope: "write" as const, tokenId: "bench", name: "bench" };
  const ctx = (audit: AuditStorage | null): ActionContext => ({ engine: withAudit(engine, audit), tokens: new TokenStore(engine.tokens), user });
  const fields = [
    { id: "k", type: "int" },
    { id: "name", type: "text" },
    { id: "value", type: "numeric" },
    { id: "day", type: "date" },
  ];
  await datastoreCreate(ctx(null), { resource_id: "audit_bench", fields, primary_key: "k" });
  let next = 0;
  const batch = () =>
    Array.from({ length: BATCH }, (_, i) => {
      // Half new keys, half updates of keys written before: an upsert's usual mix.
      const k = i % 2 === 0 || next < BATCH ? next + i : next - BATCH + i;
      return { k, name: `row ${k}`, value: k * 1.5, day: `2026-0${(k % 9) + 1}-1${k % 9}` };
    });
  const ms = { with: [] as number[], without: [] as number[] };
  const run = async (mode: "with" | "without") => {
    const records = batch();
    next += BATCH;
    const t = process.hrtime.bigint();
    await datastoreUpsert(ctx(mode === "with" ? null : NO_AUDIT), { resource_id: "audit_bench", records, method: "upsert" });
    ms[mode].push(Number(process.hrtime.bigint() - t) / 1e6);
  };
  for (let i = 0; i < 4; i++) await run(i % 2 ? "with" : "without"); // warm-up, not counted
  ms.with.length = ms.without.length = 0;
  for (let i = 0; i < BATCHES; i++) {
    const order: ("with" | "without")[] = i % 2 ? ["with", "without"] : ["without", "with"];
    for (const mode of order) await run(mode);
  }
  const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const rate = (xs: number[]) => (xs.length * BATCH) / (total(xs) / 1000);
  const out = {
    engine: url ? "postgresql" : "sqlite",
    batches: BATCHES,
    batchRecords: BATCH,
    withAudit: { rowsPerSecond: Math.round(rate(ms.with)), medianBatchMs: +median(ms.with).toFixed(1) },
    withoutAudit: { rowsPerSecond: Math.round(rate(ms.without)), medianBatchMs: +median(ms.without).toFixed(1) },
    throughputRatio: +(rate(ms.with) / rate(ms.without)).toFixed(3),
    // Robust to the odd slow batch on a shared machine: the ratio of the median batches' rates.
    medianRatio: +(median(ms.without) / median(ms.with)).toFixed(3),
    entries: (await engine.audit.list({ resourceId: "audit_bench", limit: 1000, offset: 0 })).length,
  };
  console.log(JSON.stringify(out, null, 2));
  await engine.close();
  await cluster?.stop();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
