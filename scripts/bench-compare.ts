// `npm run bench -- --compare DIR [--engine postgres] [--rounds N]`: this checkout's API server
// beside another checkout's (DIR: a git worktree of the commit before a change, with its
// node_modules), both on one copy of the 3M-row table, taking turns round by round so a noisy
// machine slows both alike: the five-query mix at 4 clients, then each of its pages' medians.
// Prints each figure for both and their ratio (this / DIR); "No speed given back" reads as
// ratios here (docs/performance.md).
import path from "node:path";
import { load, loadedPostgres, startApi, stats, type PgBenchInput } from "./bench-postgres";

/** `--rounds N` for a noisier machine. */
const ROUNDS = Number(process.argv[process.argv.indexOf("--rounds") + 1]) || 3;
const MIX_SECONDS = 8;
const PAGE_REPEATS = 40;

type Server = Awaited<ReturnType<typeof startApi>>;

export async function benchCompare(input: PgBenchInput & { other: string; engine: "sqlite" | "postgres" }): Promise<void> {
  const other = path.resolve(input.other);
  const store = input.engine === "postgres" ? await loadedPostgres(input) : { env: { DATASTORE_DB: input.sqliteDb, DATASTORE_DATABASE_URL: "" }, stop: async () => {} };
  const mix = input.queries.filter((q) => q.indexed);
  const sides: { name: string; root: string; server?: Server; rps: number[]; pages: Map<string, number[]> }[] = [
    { name: "this", root: process.cwd(), rps: [], pages: new Map() },
    { name: path.basename(other), root: other, rps: [], pages: new Map() },
  ];
  try {
    for (const side of sides) side.server = await startApi(store.env, input.resource, side.root);
    for (const side of sides) await load(side.server!.port, input.resource, mix, 4, { seconds: 2 }); // warm up
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate who goes first, so neither always runs on a machine the other just warmed.
      const order = round % 2 ? [...sides].reverse() : sides;
      for (const side of order) {
        const r = await load(side.server!.port, input.resource, mix, 4, { seconds: MIX_SECONDS });
        if (r.errors) throw new Error(`${side.name}: ${r.errors} errors in the mix`);
        side.rps.push(r.rps);
      }
      for (const q of mix) {
        for (const side of order) {
          const times = [...(await load(side.server!.port, input.resource, [q], 2, { count: PAGE_REPEATS })).latencies.values()][0];
          side.pages.set(q.name, [...(side.pages.get(q.name) ?? []), ...times]);
        }
      }
      console.log(`round ${round + 1}/${ROUNDS}: ${sides.map((s) => `${s.name} ${s.rps[round].toFixed(0)} req/s`).join(", ")}`);
    }
  } finally {
    for (const side of sides) await side.server?.stop();
    await store.stop();
  }

  const [a, b] = sides;
  const median = (xs: number[]) => stats(xs).median;
  const f = (n: number) => n.toFixed(2).padStart(9);
  console.log(`\n${input.engine}: this checkout beside ${other}, ${ROUNDS} rounds taking turns`);
  console.log(`${"".padEnd(32)} ${a.name.padStart(9)} ${b.name.slice(0, 9).padStart(9)}    ratio`);
  const mixRatio = median(a.rps) / median(b.rps);
  console.log(`${"mix, 4 clients (req/s, median)".padEnd(32)} ${f(median(a.rps))} ${f(median(b.rps))}  ${mixRatio.toFixed(3)}`);
  for (const q of mix) {
    const ma = median(a.pages.get(q.name)!);
    const mb = median(b.pages.get(q.name)!);
    console.log(`${`${q.name} (ms, median)`.padEnd(32)} ${f(ma)} ${f(mb)}  ${(ma / mb).toFixed(3)}`);
  }
}
