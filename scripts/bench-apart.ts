// `npx tsx scripts/bench-apart.ts --compare DIR [--rounds N]`: one client alone, one request at
// a time, searches whose total must be counted, against this checkout's `npm start` and DIR's
// (a worktree of the commit before a change, with its node_modules and its built dist), both
// on one copy of the 3M-row table (`npm run bench` builds it; the copy is removed after), with
// nothing kept (DATASTORE_PAGE_CACHE_MB=0) and each request a new question (another filter
// value), so no kept answer or count serves it; the servers take turns round by round. Prints
// each case's median per side and their ratio (this / DIR), and the load average before and
// after (docs/performance.md, "A client alone on both cores"). Past 3 rounds some questions
// come again, and a kept count may answer them. Then fairness: while one client's search counts
// the unindexed table apart, another client (the admin token: a client of its own) asks an
// expensive read 150 ms after it; that read's time is printed per side.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { load, startApi, stats } from "./bench-postgres";

const ROUNDS = Number(process.argv[process.argv.indexOf("--rounds") + 1]) || 3;
const OTHER = process.argv.includes("--compare") ? path.resolve(process.argv[process.argv.indexOf("--compare") + 1]) : null;
/** `--db FILE`: the 3M-row table elsewhere than this checkout's data/bench. */
const DB = path.resolve(process.argv.includes("--db") ? process.argv[process.argv.indexOf("--db") + 1] : "data/bench/bench.db");
const RESOURCE = "flights-3m";
/** startApi's DATASTORE_ADMIN_TOKEN. */
const TOKEN = "bench-admin-token";
const FAIR_CASE = "another client's read during a split";

const AIRPORTS = ["LAX", "SFO", "SEA", "DEN", "ORD", "ATL", "DFW", "PHX", "LAS", "SLC", "JFK", "BOS", "MSP", "DTW", "IAH", "SAN", "SMF", "OAK", "SJC", "BUR", "ONT", "SNA", "ABQ", "AUS", "BWI", "CLT", "EWR", "HNL", "IAD", "MCI"];

interface Case {
  name: string;
  /** Requests per round and side. */
  per: number;
  body(round: number, i: number): Record<string, unknown>;
}

const CASES: Case[] = [
  // The total joins every Portland match with the filter's rows: a count that reads rows.
  { name: "q=Portland + destination=X + total", per: 8, body: (r, i) => ({ q: "Portland", filters: { destination: AIRPORTS[(r * 8 + i) % AIRPORTS.length] }, limit: 100 }) },
  // distance has no index: the count reads all 3M rows.
  { name: "distance=N (unindexed) + total", per: 3, body: (r, i) => ({ filters: { distance: 300 + 10 * (r * 3 + i) }, limit: 100 }) },
  // A cheap page (a rowid range, as next_page's) beside a count that scans the table: in ranges.
  { name: "_id>K AND distance>=1000 + total", per: 8, body: (r, i) => ({ filters: { _id: { gt: 1000 * (r * 8 + i + 1) }, distance: { gte: 1000 } }, limit: 100 }) },
  // A cheap page (the origin index) beside a count through that index: whole, beside it.
  { name: "origin=X AND distance>=N + total", per: 8, body: (r, i) => ({ filters: { origin: AIRPORTS[(r * 8 + i) % AIRPORTS.length], distance: { gte: 500 + r * 8 + i } }, limit: 100 }) },
  // Controls, counted from an index or ranked lists: one worker as before.
  { name: "origin=X + total (index count)", per: 8, body: (r, i) => ({ filters: { origin: AIRPORTS[(r * 8 + i + 5) % AIRPORTS.length] }, limit: 100 }) },
  { name: "q=Portland + total (ranked)", per: 8, body: () => ({ q: "Portland", limit: 100 }) },
];

/** The other client's read, and the lone client's search it comes during. */
const FAIR = {
  lone: (i: number) => ({ filters: { distance: 2000 + 10 * i }, limit: 100 }),
  other: (i: number) => ({ filters: { origin: AIRPORTS[i % AIRPORTS.length], distance: { gte: 700 + i } }, limit: 100 }),
  afterMs: 150,
};

async function ask(port: number, body: Record<string, unknown>, token?: string): Promise<number> {
  const t = performance.now();
  const res = await fetch(`http://127.0.0.1:${port}/api/action/datastore_search`, { method: "POST", headers: { "content-type": "application/json", ...(token && { authorization: token }) }, body: JSON.stringify({ resource_id: RESOURCE, ...body }) });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`status ${res.status}`);
  return performance.now() - t;
}

function loadAverage(): string {
  return os.loadavg().map((n) => n.toFixed(2)).join(" ");
}

async function main(): Promise<void> {
  if (!OTHER) throw new Error("usage: npx tsx scripts/bench-apart.ts --compare DIR [--rounds N]");
  if (!fs.existsSync(DB)) throw new Error(`${DB} is missing: npm run bench builds it`);
  const copy = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "bench-apart-")), "bench.db");
  fs.copyFileSync(DB, copy);
  const env = { DATASTORE_DB: copy, DATASTORE_DATABASE_URL: "", DATASTORE_PAGE_CACHE_MB: "0" };
  const sides = [
    { name: "this", root: process.cwd(), times: new Map<string, number[]>() },
    { name: path.basename(OTHER), root: OTHER, times: new Map<string, number[]>() },
  ];
  const servers: Awaited<ReturnType<typeof startApi>>[] = [];
  const startLoad = loadAverage();
  try {
    for (const side of sides) servers.push(await startApi(env, RESOURCE, side.root));
    for (let round = 0; round < ROUNDS; round++) {
      for (const c of CASES) {
        // Alternate who goes first, so neither always runs on a machine the other just warmed.
        const order = round % 2 ? [1, 0] : [0, 1];
        for (const s of order) {
          for (let i = 0; i < c.per; i++) {
            const r = await load(servers[s].port, RESOURCE, [{ name: c.name, body: c.body(round, i) }], 1, { count: 1 });
            if (r.errors) throw new Error(`${sides[s].name}: ${c.name} failed`);
            sides[s].times.set(c.name, [...(sides[s].times.get(c.name) ?? []), ...r.latencies.get(c.name)!]);
          }
        }
      }
      const order = round % 2 ? [1, 0] : [0, 1];
      for (const s of order) {
        for (let i = 0; i < 3; i++) {
          const n = round * 3 + i;
          const lone = ask(servers[s].port, FAIR.lone(n));
          await new Promise((r) => setTimeout(r, FAIR.afterMs));
          const other = await ask(servers[s].port, FAIR.other(n), TOKEN);
          await lone;
          sides[s].times.set(FAIR_CASE, [...(sides[s].times.get(FAIR_CASE) ?? []), other]);
        }
      }
      console.log(`round ${round + 1}/${ROUNDS} done, load average ${loadAverage()}`);
    }
  } finally {
    for (const server of servers) await server.stop();
    fs.rmSync(path.dirname(copy), { recursive: true, force: true });
  }
  const [a, b] = sides;
  const f = (n: number) => n.toFixed(1).padStart(9);
  console.log(`\nOne client alone, one request at a time, DATASTORE_PAGE_CACHE_MB=0, ${ROUNDS} rounds taking turns; load average ${startLoad} before, ${loadAverage()} after`);
  console.log(`${"median ms".padEnd(38)} ${a.name.padStart(9)} ${b.name.slice(0, 9).padStart(9)}    ratio`);
  for (const name of [...CASES.map((c) => c.name), FAIR_CASE]) {
    const ma = stats(a.times.get(name)!).median;
    const mb = stats(b.times.get(name)!).median;
    console.log(`${name.padEnd(38)} ${f(ma)} ${f(mb)}  ${(ma / mb).toFixed(3)}`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
