// Full text as of a past version against the same search today (issue 27, SQLite): a 100,000-row
// table of generated text, then 3,000 rows updated (three batches) and 500 deleted; each search
// timed through datastore_search today and as_of the version before the changes: the first call
// (which makes the past's temp index and ranked matches), then the median of 9 after it.
// Kept answers off (DATASTORE_PAGE_CACHE_MB 0). `npx tsx scripts/bench-past-fts.ts`.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { TokenStore } from "../lib/auth/tokens";
import { ACTIONS } from "../lib/datastore/actions";
import type { ActionContext } from "../lib/datastore/context";
import { openEngine } from "../lib/datastore/open";

const ROWS = Number(process.env.BENCH_PAST_FTS_ROWS ?? 100_000);
const UPDATED = 3_000;
const DELETED = 500;
const RUNS = 9;

/** Words with a skewed frequency: word i is about 1/(i+1) as common as word 0. */
let seed = 42;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const VOCAB = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}x`);
const word = () => VOCAB[Math.min(VOCAB.length - 1, Math.floor(Math.exp(random() * Math.log(VOCAB.length))) - 1)];
const text = (n: number) => Array.from({ length: n }, word).join(" ");

const SEARCHES: { name: string; body: Record<string, unknown> }[] = [
  { name: "common word (~20% of rows)", body: { q: VOCAB[0] } },
  { name: "rarer word (~3%)", body: { q: VOCAB[60] } },
  { name: "two words", body: { q: `${VOCAB[1]} ${VOCAB[7]}` } },
  { name: "q dict on one field", body: { q: { t: VOCAB[3] } } },
  { name: "q + filter, sort by field", body: { q: VOCAB[2], filters: { g: 3 }, sort: "n desc" } },
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  process.env.DATASTORE_ADAPTIVE_INDEXES = "0";
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-past-fts-"));
  const engine = await openEngine({ file: path.join(dir, "b.db"), pageCacheBytes: 0 });
  const ctx: ActionContext = { engine: engine.forClient("bench", { tokenId: null, tokenName: "bench" }), tokens: new TokenStore(engine.tokens), user: { scope: "admin", name: "bench" } };
  const run = (action: keyof typeof ACTIONS, params: Record<string, unknown>) => ACTIONS[action].run(ctx, params) as Promise<Record<string, unknown>>;
  const fields = [
    { id: "t", type: "text" },
    { id: "u", type: "text" },
    { id: "n", type: "int4" },
    { id: "g", type: "int4" },
  ];
  const { resource_id: id } = (await run("datastore_create", { resource: { name: "past-fts" }, fields, indexes: "g" })) as { resource_id: string };
  for (let from = 0; from < ROWS; from += 10_000) {
    const records = Array.from({ length: 10_000 }, (_, i) => ({ t: text(8), u: text(3), n: from + i, g: (from + i) % 10 }));
    await run("datastore_upsert", { resource_id: id, method: "insert", records });
  }
  const version = async () => ((await run("datastore_info", { resource_id: id })) as { meta: { version: number } }).meta.version;
  const before = await version();
  const step = Math.floor(ROWS / UPDATED);
  for (let b = 0; b < 3; b++) {
    const records = Array.from({ length: UPDATED / 3 }, (_, i) => ({ _id: (b * (UPDATED / 3) + i) * step + 1, t: text(8), u: text(3) }));
    await run("datastore_upsert", { resource_id: id, method: "update", records });
  }
  await run("datastore_records_delete", { resource_id: id, filters: { n: Array.from({ length: DELETED }, (_, i) => i * step + 2) } });
  console.log(`${ROWS} rows, ${UPDATED} updated and ${DELETED} deleted since version ${before} (now ${await version()})`);
  for (const s of SEARCHES) {
    const timed = async (body: Record<string, unknown>) => {
      const t = performance.now();
      const out = await run("datastore_search", { resource_id: id, limit: 100, ...body });
      return { ms: performance.now() - t, total: out.total as number };
    };
    const first = { now: await timed(s.body), past: await timed({ ...s.body, as_of: before }) };
    const now: number[] = [];
    const past: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      now.push((await timed(s.body)).ms);
      past.push((await timed({ ...s.body, as_of: before })).ms);
    }
    console.log(
      `${s.name}: total ${first.now.total} today, ${first.past.total} then; first call ${first.now.ms.toFixed(1)} / ${first.past.ms.toFixed(1)} ms (today / as_of), ` +
        `median ${median(now).toFixed(1)} / ${median(past).toFixed(1)} ms = ${(median(past) / median(now)).toFixed(2)}x`,
    );
  }
  await engine.close();
  fs.rmSync(dir, { recursive: true, force: true });
  console.log(`cpus ${os.availableParallelism()}, load ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
}

void main();
