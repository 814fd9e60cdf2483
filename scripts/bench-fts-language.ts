// The bench's "fts-language" scenario (issue 28): what a resource's full-text language costs on
// SQLite. One table of BENCH_FTS_ROWS rows (default 100,000): two text columns of eight words
// drawn from a made-up vocabulary of stems and endings (the same draw for every language) and an
// integer. Then, in turn, the index rebuilt in each language (engine.setLanguage, what a
// changed language and a migration do), best of three alternating rounds, and a plain q of one
// word (median of 200 different words, kept answers off, with how many rows match: stemming
// merges words).
// `npm run bench -- --only fts-language` (or npx tsx scripts/bench-fts-language.ts).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { DatastoreEngine } from "../lib/datastore/engine";
import { parsePlain } from "../lib/datastore/full-text";
import { openEngine } from "../lib/datastore/open";

const ROWS = Number(process.env.BENCH_FTS_ROWS ?? 100_000);
const LANGUAGES = ["english", "french", "german", "simple"];
const STEMS = ["chev", "maison", "élèv", "nation", "heur", "beau", "haus", "straß", "bäum", "run", "walk", "play", "cœur", "hôpit", "garten", "schön"];
const ENDINGS = ["", "s", "aux", "al", "e", "es", "alité", "ement", "eux", "er", "ern", "ing", "ed", "ally", "en", "ung"];

function words(): string[] {
  let seed = 42;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const vocabulary = STEMS.flatMap((s) => ENDINGS.map((e) => s + e));
  return Array.from({ length: 8 * 2 * ROWS }, () => vocabulary[Math.floor(next() * vocabulary.length)]);
}

function median(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export async function ftsLanguageOnly(results: string): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-fts-language-"));
  const engine: DatastoreEngine = await openEngine({ file: path.join(dir, "b.db"), readWorkers: 0, pageCacheBytes: 0 });
  try {
    await engine.createResource({ id: "b", name: "b", description: "", private: false }, [
      { id: "a", type: "text" },
      { id: "b", type: "text" },
      { id: "n", type: "int4" },
    ]);
    const w = words();
    for (let from = 0; from < ROWS; from += 10_000) {
      const records = Array.from({ length: Math.min(10_000, ROWS - from) }, (_, k) => {
        const i = (from + k) * 16;
        return { a: w.slice(i, i + 8).join(" "), b: w.slice(i + 8, i + 16).join(" "), n: from + k };
      });
      await engine.write("b", records, "insert");
    }
    const build: Record<string, number[]> = Object.fromEntries(LANGUAGES.map((l) => [l, []]));
    const search: Record<string, number> = {};
    const matches: Record<string, number> = {};
    for (let round = 0; round < 3; round++) {
      for (const language of LANGUAGES) {
        // From another language each time, so that every round rebuilds.
        await engine.setLanguage("b", language === "simple" ? "english" : "simple");
        const t0 = performance.now();
        await engine.setLanguage("b", language);
        build[language].push(performance.now() - t0);
        if (round === 2) {
          const r = (await engine.getResource("b"))!;
          const times: number[] = [];
          let found = 0;
          for (const word of [...new Set(w)].slice(0, 200)) {
            const t1 = performance.now();
            found += (await engine.search(r, {
              filters: [], fts: [{ field: null, tree: parsePlain(word, language), rank: "rank", text: word }], columns: ["_id"],
              sort: [{ field: "rank", desc: true, nullsFirst: false }], distinct: false, limit: 10, offset: 0, includeTotal: true,
            })).total ?? 0;
            times.push(performance.now() - t1);
          }
          search[language] = median(times);
          matches[language] = Math.round(found / 200);
        }
      }
    }
    const figures = { rows: ROWS, build, search, matches, cpus: os.availableParallelism(), load: os.loadavg() };
    for (const l of LANGUAGES) {
      console.log(`${l.padEnd(8)} index build ${Math.min(...build[l]).toFixed(0)} ms (best of ${build[l].map((t) => t.toFixed(0)).join(", ")}), q of one word ${search[l].toFixed(2)} ms (median, first page and total; ${matches[l]} rows match on average)`);
    }
    console.log(`load average ${figures.load.map((x) => x.toFixed(1)).join(" ")}`);
    const previous = fs.existsSync(results) ? (JSON.parse(fs.readFileSync(results, "utf8")) as Record<string, unknown>) : {};
    fs.writeFileSync(results, JSON.stringify({ ...previous, ftsLanguage: figures }, null, 2));
    console.log(`\nJSON: ${results} (key "ftsLanguage")`);
  } finally {
    await engine.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename ?? "")) {
  void ftsLanguageOnly(path.join(os.tmpdir(), "bench-fts-language.json"));
}
