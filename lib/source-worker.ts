// Where the server's code is, and the threads it starts from there. `npm start` runs the
// compiled copy that scripts/build-server.mjs writes (the same layout, .js for .ts), and each
// thread starts that copy's entry; everything else (tests, `npm run dev`, the command line,
// `next start`) runs the TypeScript source, and a thread boots tsx to run its source.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker, type WorkerOptions } from "node:worker_threads";

/** Every thread the app starts, by its source entry from the project root. The build compiles
 *  each of these; a thread not listed here does not type-check at its sourceWorker call. */
export const THREADS = [
  "lib/datastore/sqlite/read-worker.ts",
  "lib/datastore/sqlite/index-builder.ts",
  "lib/datastore/sqlite/fts-worker.ts",
  "lib/datastore/sqlite/scan-worker.ts",
  "lib/upload/import-worker.ts",
  "lib/import/load-worker.ts",
] as const;
export type ThreadEntry = (typeof THREADS)[number];

// Defined by scripts/build-server.mjs as its output folder, from the project root ("dist").
declare const SERVER_BUILD: string;
const BUILD: string | undefined = typeof SERVER_BUILD === "string" ? SERVER_BUILD : undefined;

/** Running the compiled copy, not the source. */
export const compiled = BUILD !== undefined;

/** The compiled copy's root: the nearest folder above this module with the build's package.json. */
function buildRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, "package.json")) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

/** Beside this file when it runs from source (started from any directory), else
 *  process.cwd(), where `next start` runs: its bundles move this file, never the project. */
function sourceRoot(): string {
  const here = path.resolve(__dirname, "..");
  return fs.existsSync(path.join(here, "lib", "source-worker.ts")) ? here : process.cwd();
}

/** Where the code runs from: the project root, or the compiled copy of it. */
export const codeRoot = BUILD !== undefined ? buildRoot() : sourceRoot();
/** The project's root (app/, public/, the .next build). */
export const projectRoot = BUILD !== undefined ? path.resolve(codeRoot, path.relative(BUILD, ".")) : codeRoot;

/**
 * A thread running `file`. From source, with `esm`, tsx's ESM hook too, for source that imports
 * TypeScript on demand (the importer's readers); without it the thread starts sooner.
 */
export function sourceWorker(file: ThreadEntry, options: WorkerOptions & { esm?: boolean } = {}): Worker {
  const { esm, ...rest } = options;
  if (compiled) return new Worker(path.join(codeRoot, file.replace(/\.ts$/, ".js")), rest);
  const entry = JSON.stringify(path.join(codeRoot, file));
  const boot = esm
    ? `require("tsx/cjs/api").register(); import("tsx/esm/api").then((tsx) => { tsx.register(); require(${entry}); });`
    : `require("tsx/cjs/api").register(); require(${entry});`;
  return new Worker(boot, { ...rest, eval: true });
}
