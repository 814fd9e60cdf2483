// `npx tsx scripts/bench-sample.ts [--db data/bench/bench.db]`: what datastore_search's `sample`
// (lib/datastore/search-sample.ts) costs on the 3M-row bench table, in process through the
// action, beside the request the scatter plot sent before it (the first 2,000 rows, the total
// estimated past 100,000) and beside the exact count alone, which a sample's total needs. Each
// case three times, n changed by one each time so that no kept answer serves it.
import path from "node:path";
import { TokenStore } from "../lib/auth/tokens";
import { ACTIONS } from "../lib/datastore/actions";
import type { ActionContext } from "../lib/datastore/context";
import { openEngine } from "../lib/datastore/open";

const RESOURCE = "flights-3m";

const CASES: [string, Record<string, unknown>][] = [
  ["whole table", {}],
  ["the scatter's own filter (distance and delay not empty)", { filters: { distance: { x_empty: false }, delay: { x_empty: false } } }],
  ["origin = SEA (indexed, spread through the table)", { filters: { origin: "SEA" } }],
  ["delay > 60 (indexed)", { filters: { delay: { gt: 60 } } }],
  ["January 2001 (one stretch of the table, not indexed)", { filters: { date: { lt: "2001-02-01" } } }],
];

async function main(): Promise<void> {
  const i = process.argv.indexOf("--db");
  const file = path.resolve(i >= 0 ? process.argv[i + 1] : "data/bench/bench.db");
  process.env.DATASTORE_ADAPTIVE_INDEXES = "0";
  process.env.DATASTORE_QUERY_TIMEOUT_MS ??= "600000";
  const engine = await openEngine({ file });
  const ctx: ActionContext = { engine, tokens: new TokenStore(engine.tokens), user: { scope: "admin", name: "bench" } };
  const search = async (params: Record<string, unknown>) => {
    const cpu = process.cpuUsage();
    const t = performance.now();
    const out = (await ACTIONS.datastore_search.run(ctx, { resource_id: RESOURCE, fields: ["_id", "distance", "delay"], ...params })) as { total?: number };
    const used = process.cpuUsage(cpu);
    return { ms: performance.now() - t, cpu: (used.user + used.system) / 1000, total: out.total };
  };
  const ms = (x: number) => `${x.toFixed(x < 10 ? 1 : 0)} ms`;
  const both = (x: { ms: number; cpu: number }) => `${ms(x.ms)} (CPU ${ms(x.cpu)})`;
  try {
    for (const [name, extra] of CASES) {
      // The exact count first, cold: the sample's own count is then kept, and what is left is
      // the sample's reads.
      const count = await search({ ...extra, limit: 0, fields: ["_id"] });
      const sample = [];
      const first = [];
      for (let k = 0; k < 3; k++) {
        sample.push(await search({ ...extra, sample: 2000 + k }));
        first.push(await search({ ...extra, limit: 2000 + k, total_estimation_threshold: 100000 }));
      }
      console.log(`${name}: ${count.total} rows; exact count, cold: ${both(count)}`);
      console.log(`  sample 2000 ${sample.map(both).join(", ")}`);
      console.log(`  first 2000, total estimated ${first.map(both).join(", ")}`);
    }
  } finally {
    await engine.close();
  }
}

void main();
