// The threads the app starts (read workers, an upload's import, an import's reader) run their
// TypeScript source through tsx, found from the project root: beside this file when it runs
// from source (npm start, tests, the command line, started from any directory), else
// process.cwd(), where `next start` runs: its bundles move this file, never the sources.
import fs from "node:fs";
import path from "node:path";
import { Worker, type WorkerOptions } from "node:worker_threads";

function projectRoot(file: string): string {
  const here = path.resolve(__dirname, "..");
  return fs.existsSync(path.join(here, file)) ? here : process.cwd();
}

/**
 * A thread running `file`, a path from the project root ("lib/upload/import-worker.ts"). With
 * `esm`, tsx's ESM hook too, for source that imports TypeScript on demand (the importer's
 * readers); without it the thread starts sooner.
 */
export function sourceWorker(file: string, options: WorkerOptions & { esm?: boolean } = {}): Worker {
  const { esm, ...rest } = options;
  const entry = JSON.stringify(path.join(projectRoot(file), file));
  const boot = esm
    ? `require("tsx/cjs/api").register(); import("tsx/esm/api").then((tsx) => { tsx.register(); require(${entry}); });`
    : `require("tsx/cjs/api").register(); require(${entry});`;
  return new Worker(boot, { ...rest, eval: true });
}
