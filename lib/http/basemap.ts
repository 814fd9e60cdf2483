// GET /basemap/{name}: the explorer's offline map outlines, TopoJSON from the vega-datasets
// package: "world-110m" (land and countries) and "us-10m" cut down to its states (its counties
// are four fifths of the file and the map never draws them). Built once, kept in memory; the
// files change only with the package, so browsers keep them for a week.
import fs from "node:fs";
import path from "node:path";
import { createHash } from "node:crypto";
import type { ApiRequest } from "./params";

export const BASEMAPS = ["world-110m", "us-10m"] as const;

type Arcs = number | Arcs[];
type Topology = { type: "Topology"; transform?: unknown; objects: Record<string, { geometries: { arcs?: Arcs }[] }>; arcs: unknown[] };

/** The topology with only `keep` of its objects and the arcs they use, renumbered. */
export function keepObjects(t: Topology, keep: string[]): Topology {
  const used = new Map<number, number>();
  const visit = (a: Arcs | undefined) => {
    if (typeof a === "number") used.set(a < 0 ? ~a : a, 0);
    else a?.forEach(visit);
  };
  for (const name of keep) for (const g of t.objects[name].geometries) visit(g.arcs);
  const order = [...used.keys()].sort((a, b) => a - b);
  order.forEach((old, i) => used.set(old, i));
  const renumber = (a: Arcs): Arcs => (typeof a === "number" ? (a < 0 ? ~used.get(~a)! : used.get(a)!) : a.map(renumber));
  const objects = Object.fromEntries(
    keep.map((name) => [name, { ...t.objects[name], geometries: t.objects[name].geometries.map((g) => (g.arcs ? { ...g, arcs: renumber(g.arcs) } : g)) }]),
  );
  return { ...t, objects, arcs: order.map((i) => t.arcs[i]) };
}

type Built = { body: Buffer; etag: string };
const built = new Map<string, Built>();

function build(name: string): Built {
  let b = built.get(name);
  if (!b) {
    const file = path.join(/* turbopackIgnore: true */ process.cwd(), "node_modules", "vega-datasets", "data", `${name}.json`);
    let topology = JSON.parse(fs.readFileSync(file, "utf8")) as Topology;
    if (name === "us-10m") topology = keepObjects(topology, ["states"]);
    const body = Buffer.from(JSON.stringify(topology));
    b = { body, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 16)}"` };
    built.set(name, b);
  }
  return b;
}

export function handleBasemap(request: ApiRequest, name: string): Response {
  if (!(BASEMAPS as readonly string[]).includes(name)) {
    return new Response("Not found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  }
  const { body, etag } = build(name);
  const headers = { "content-type": "application/json; charset=utf-8", "cache-control": "public, max-age=604800", etag };
  if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  return new Response(request.method === "HEAD" ? null : new Uint8Array(body), { headers: { ...headers, "content-length": String(body.byteLength) } });
}
