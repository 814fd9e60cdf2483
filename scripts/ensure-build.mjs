// `npm start` runs this first: build the app (.next/) and compile the server (dist/,
// scripts/build-server.mjs) when there is no build yet, or when a source file is newer than the
// last build, so `npm install && npm start` is enough on a fresh clone.
//   --server: the compiled server only (`npm run start:api` serves no pages).
import { execSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { BUILT, buildServer } from "./build-server.mjs";

const marker = path.join(process.env.NEXT_DIST_DIR || ".next", "server", "app", "index.html");
// lib too: `next build` bundles the route handlers (the API) for `next start`.
const SOURCES = ["app", "components", "lib", "public", "proxy.ts", "instrumentation.ts", "next.config.mjs", "package.json", "postcss.config.mjs"];

function newest(p) {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let t = st.mtimeMs;
  for (const entry of fs.readdirSync(p)) t = Math.max(t, newest(path.join(p, entry)));
  return t;
}

const builtAt = (file) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0);
const changed = Math.max(...SOURCES.map(newest));
if (!process.argv.includes("--server")) {
  const built = builtAt(marker);
  if (built === 0 || changed > built) {
    console.log(built === 0 ? "No build yet: building the app (about 30 s)…" : "Sources changed since the last build: rebuilding…");
    execSync("npx next build", { stdio: "inherit" });
  }
}
const compiled = builtAt(BUILT);
if (compiled === 0 || changed > compiled) {
  console.log("Compiling the server…");
  await buildServer();
}
