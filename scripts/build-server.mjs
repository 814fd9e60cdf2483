// Compiles `npm start`'s server to JavaScript in dist/ (scripts/ensure-build.mjs runs this when
// dist/ is missing or older than the sources): lib/server/main.ts, every route module
// (app/**/route.ts, which main.ts loads by path), and every thread the app starts
// (lib/source-worker.ts THREADS), in the sources' layout, as ES modules sharing their common
// code in dist/chunks/, so one process holds one copy of each module. Packages stay in
// node_modules, but those in BUNDLED.
import fs from "node:fs";
import path from "node:path";

export const OUT = "dist";
/** Written last: the build is complete, and as recent as this file. */
export const BUILT = path.join(OUT, "package.json");

function routeModules(dir, out = []) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) routeModules(file, out);
    else if (entry.name === "route.ts") out.push(file);
  }
  return out;
}

function files(dir, out = []) {
  if (!fs.existsSync(dir)) return out;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) files(file, out);
    else out.push(file);
  }
  return out;
}

/** Packages bundled into the build, not loaded from node_modules: CommonJS ones that Node reads
 *  whole (cjs-module-lexer) to find their exports when an ES module imports them, at every start
 *  of every thread (snowball-stemmers: 0.9 MB, docs/performance.md "Start-up"). */
const BUNDLED = ["snowball-stemmers"];

export async function buildServer(root = process.cwd()) {
  // Loaded here: ensure-build.mjs imports this file on every `npm start`, mostly to build nothing.
  const [{ build }, { tsImport }] = await Promise.all([import("esbuild"), import("tsx/esm/api")]);
  const { THREADS } = await tsImport("../lib/source-worker.ts", import.meta.url);
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  // The other packages stay in node_modules (a name covers its subpaths).
  const external = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).filter((name) => !BUNDLED.includes(name));
  const out = path.join(root, OUT);
  const previous = fs.statSync(path.join(root, BUILT), { throwIfNoEntry: false })?.mtimeMs ?? Infinity;
  const result = await build({
    absWorkingDir: root,
    entryPoints: ["lib/server/main.ts", ...routeModules(path.join(root, "app")).map((f) => path.relative(root, f)), ...THREADS],
    outdir: OUT,
    outbase: ".",
    chunkNames: "chunks/[name]-[hash]",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    external,
    // lib/source-worker.ts: run the compiled threads, and find the project from here.
    define: { SERVER_BUILD: JSON.stringify(OUT) },
    // The source's own `__dirname` (lib/source-worker.ts reads it only when not compiled).
    logOverride: { "commonjs-variable-in-esm": "silent" },
    logLevel: "warning",
    metafile: true,
  });
  // A package the sources import without package.json naming it would be bundled unseen.
  const unlisted = Object.keys(result.metafile.inputs).filter((f) => f.includes("node_modules/") && !BUNDLED.some((name) => f.includes(`node_modules/${name}/`)));
  if (unlisted.length) throw new Error(`build-server: imported but not in package.json: ${unlisted.join(", ")}`);
  // What this build did not write goes: a route or a thread removed from the sources must not
  // be loaded by path. A server started from the previous build may still load its chunks on
  // demand (an importer's reader, a new thread), so those stay until the next build.
  const written = new Set(Object.keys(result.metafile.outputs).map((f) => path.join(root, f)));
  for (const file of files(out)) {
    if (written.has(file) || file === path.join(root, BUILT)) continue;
    const chunk = path.relative(out, file).startsWith(`chunks${path.sep}`);
    if (!chunk || fs.statSync(file).mtimeMs < previous - 60_000) fs.rmSync(file);
  }
  // The .js files are ES modules; this file also marks the build's root (lib/source-worker.ts).
  fs.writeFileSync(path.join(root, BUILT), `${JSON.stringify({ type: "module" })}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = Date.now();
  await buildServer();
  console.log(`Compiled the server to ${OUT}/ (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
