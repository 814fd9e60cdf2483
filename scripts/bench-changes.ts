// datastore_changes paging (issue 27, review item 9): a resource of ROWS rows, each updated
// once in batches of 1,000 (ROWS / 1,000 versions), then every change since the load walked at
// limit 1,000 through the action, on SQLite and on a throwaway PostgreSQL cluster. Prints the
// first page's time (it counts), a late page's, and the whole walk's.
// npx tsx scripts/bench-changes.ts [--rows 40000] [--engine sqlite|postgres|both]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { TokenStore } from "../lib/auth/tokens";
import { ACTIONS } from "../lib/datastore/actions";
import type { ActionContext } from "../lib/datastore/context";
import type { DatastoreEngine } from "../lib/datastore/engine";
import { openEngine } from "../lib/datastore/open";
import { startCluster } from "../lib/test/pg-cluster";

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const ROWS = Number(arg("rows", "40000"));
const WHICH = arg("engine", "both");
const BATCH = 1000;
const LIMIT = 1000;

function context(engine: DatastoreEngine): ActionContext {
  return { engine: engine.forClient("bench", { tokenId: null, tokenName: "bench" }), tokens: new TokenStore(engine.tokens), user: { scope: "admin", name: "bench" } };
}

async function run(ctx: ActionContext, name: string, params: Record<string, unknown>) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return (await ACTIONS[name].run(ctx, params)) as any;
}

async function bench(label: string, engine: DatastoreEngine): Promise<void> {
  const ctx = context(engine);
  const id = (
    await run(ctx, "datastore_create", {
      resource: { name: "changes" },
      fields: [
        { id: "k", type: "int4" },
        { id: "s", type: "text" },
      ],
      primary_key: "k",
    })
  ).resource_id;
  for (let i = 0; i < ROWS; i += BATCH) {
    await run(ctx, "datastore_upsert", { resource_id: id, method: "insert", records: Array.from({ length: Math.min(BATCH, ROWS - i) }, (_, j) => ({ k: i + j, s: `a${i + j}` })) });
  }
  const since = (await run(ctx, "datastore_info", { resource_id: id })).meta.version;
  for (let i = 0; i < ROWS; i += BATCH) {
    await run(ctx, "datastore_upsert", { resource_id: id, records: Array.from({ length: Math.min(BATCH, ROWS - i) }, (_, j) => ({ k: i + j, s: `b${i + j}` })) });
  }
  const times: number[] = [];
  let next: string | null = null;
  let seen = 0;
  const t0 = performance.now();
  do {
    const t = performance.now();
    const page = await run(ctx, "datastore_changes", { resource_id: id, since, limit: LIMIT, ...(next ? { next_page: next } : {}) });
    times.push(performance.now() - t);
    seen += page.changes.length;
    next = page.next_page;
  } while (next);
  const walk = performance.now() - t0;
  const late = times[Math.floor(times.length * 0.9)];
  console.log(`${label}: ${ROWS} updates, ${times.length} pages of ${LIMIT} (${seen} changes): first ${times[0].toFixed(0)} ms, late page ${late.toFixed(0)} ms, whole walk ${(walk / 1000).toFixed(2)} s`);
}

async function main(): Promise<void> {
  if (WHICH !== "postgres") {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-changes-"));
    const engine = await openEngine({ file: path.join(dir, "b.db"), readWorkers: 0, historyDays: 0 });
    try {
      await bench("SQLite", engine);
    } finally {
      await engine.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  if (WHICH !== "sqlite") {
    const cluster = await startCluster();
    try {
      const engine = await openEngine({ databaseUrl: cluster.url(), historyDays: 0 });
      try {
        await bench("PostgreSQL", engine);
      } finally {
        await engine.close();
      }
    } finally {
      await cluster.stop();
    }
  }
}

void main();
