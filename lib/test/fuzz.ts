// The fuzz harness: a small world (a public and a private resource, tokens of every kind), a
// way to send a generated FuzzCase (in-process through the action and dump handlers, or over HTTP to a
// running server), and the judge. For every answer: never a 5xx; the contract's envelope (or a
// bare "Bad request" string); a 4xx for what no action may accept; the database checksum
// unchanged after any rejected write, dry run or read; private data and token secrets in no
// answer that may not hold them.
import { randomUUID } from "node:crypto";
import http from "node:http";
import { checksumFile } from "../datastore/sqlite/test-support";
import { asBool } from "../datastore/validate";
import { ALL_ACTIONS, MARKERS, READ_ACTIONS, WIDE_FIELDS, WRITE_ACTIONS, type FuzzCase, type TokenRef } from "./arbitraries";
import { schemaChecksummer } from "./pg-support";

/** A word that appears only in the private resource (names, a field id, values). */
export const CANARY = "zqxcanaryqxz";

export interface Sent {
  path: string;
  method: string;
  headers: Record<string, string>;
  body?: Uint8Array;
}

export interface Answer {
  status: number;
  contentType: string;
  text: string;
}

export interface Target {
  send(req: Sent): Promise<Answer>;
  checksum(): string | Promise<string>;
  close?(): void | Promise<void>;
}

/** Where a target's data lives, read for the checksum: a SQLite file, or a PostgreSQL schema. */
export type StoreRef = string | { databaseUrl: string; schema: string };

/** The checksum of everything `store` holds (lib/datastore/sqlite/test-support.ts, lib/test/pg-support.ts). */
function checksummer(store: StoreRef): Pick<Target, "checksum" | "close"> {
  if (typeof store === "string") return { checksum: () => checksumFile(store) };
  return schemaChecksummer(store.databaseUrl, store.schema);
}

export interface World {
  admin: string;
  secrets: Partial<Record<TokenRef, string>>;
  ids: Record<keyof typeof MARKERS, string>;
}

// ------------------------------------------------------------------------------- targets

/** Sends through the app's route handlers in this process, on its store (DATASTORE_DB's file, or
 *  DATASTORE_DATABASE_URL's schema). */
export async function inProcessTarget(store: StoreRef): Promise<Target> {
  const { dispatch } = await import("./routes");
  return {
    ...checksummer(store),
    async send(req) {
      const url = new URL(req.path, "http://localhost");
      const request = new Request(url, { method: req.method, headers: req.headers, body: req.body ? Buffer.from(req.body) : undefined });
      const res = await dispatch(request);
      return { status: res.status, contentType: res.headers.get("content-type") ?? "", text: await res.text() };
    },
  };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

/** A raw HTTP request (any method, any bytes) to a server on loopback. */
export function httpSend(base: string, req: Sent, timeoutMs = 60_000): Promise<Answer> {
  const url = new URL(req.path, base);
  return new Promise((resolve, reject) => {
    const r = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: req.method,
        agent,
        headers: { ...req.headers, ...(req.body ? { "content-length": String(req.body.length) } : {}) },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers["content-type"] ?? ""), text: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    r.on("timeout", () => r.destroy(new Error(`no answer in ${timeoutMs} ms`)));
    r.on("error", reject);
    r.end(req.body ? Buffer.from(req.body) : undefined);
  });
}

/** A running server at `base` whose store (read here for the checksum) is `store`. */
export function httpTarget(base: string, store: StoreRef): Target {
  return {
    send: (req) => httpSend(base, req),
    ...checksummer(store),
  };
}

// --------------------------------------------------------------------------------- world

function adminPost(action: string, params: Record<string, unknown>, admin: string): Sent {
  return { path: `/api/action/${action}`, method: "POST", headers: { "content-type": "application/json", authorization: admin }, body: new TextEncoder().encode(JSON.stringify(params)) };
}

async function post(t: Target, action: string, params: Record<string, unknown>, token?: string) {
  const res = await t.send({
    path: `/api/action/${action}`,
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: token } : {}) },
    body: new TextEncoder().encode(JSON.stringify(params)),
  });
  const body = JSON.parse(res.text);
  if (res.status !== 200) throw new Error(`${action} failed in fuzz set-up: ${res.status} ${res.text.slice(0, 300)}`);
  return body.result;
}

const PUBLIC_RECORDS = [
  { title: "War and Peace", author: "Tolstoy", year: 1869, rating: 4.5, in_stock: true, updated: "2020-01-03", tags: ["classic", "russian"], meta: { translations: 3 }, note: "long" },
  { title: "Anna Karenina", author: "Tolstoy", year: 1877, rating: "4.2", in_stock: false, updated: "2020-01-01 10:00:00", tags: ["classic"], meta: null, note: 'says "hi"' },
  { title: "25", author: "O'Brien", year: null, rating: 9.99, in_stock: null, updated: null, tags: [], meta: [1, 2], note: "" },
];

/** Creates the world's resources (again, after a case deleted or changed them). */
async function createResources(t: Target, world: World): Promise<void> {
  for (const id of [world.ids.public, world.ids.private]) {
    if (id) await t.send({ path: "/api/action/datastore_delete", method: "POST", headers: { authorization: world.admin, "content-type": "application/json" }, body: new TextEncoder().encode(JSON.stringify({ resource_id: id })) });
  }
  const suffix = randomUUID().slice(0, 8);
  world.ids.public = (
    await post(
      t,
      "datastore_create",
      {
        resource: { name: "fuzz public", description: "public books" },
        fields: [
          { id: "title", type: "text" },
          { id: "author", type: "text" },
          { id: "year", type: "int" },
          { id: "rating", type: "numeric" },
          { id: "in_stock", type: "bool" },
          { id: "updated", type: "timestamp" },
          { id: "tags", type: "text[]" },
          { id: "meta", type: "json" },
          { id: "note", type: "text" },
        ],
        records: PUBLIC_RECORDS,
        primary_key: "title",
        aliases: [`fuzz_public_${suffix}`],
      },
      world.admin,
    )
  ).resource_id;
  world.ids.publicAlias = `fuzz_public_${suffix}`;
  world.ids.private = (
    await post(
      t,
      "datastore_create",
      {
        resource: { name: `secret ${CANARY}`, description: `private ${CANARY}`, private: true },
        fields: [
          { id: `col ${CANARY}`, type: "text", info: { label: CANARY } },
          { id: "title", type: "text" },
          { id: "year", type: "int" },
        ],
        records: [
          { [`col ${CANARY}`]: `${CANARY} one`, title: `War ${CANARY}`, year: 1869 },
          { [`col ${CANARY}`]: `${CANARY} two`, title: "Tolstoy", year: 1 },
        ],
        primary_key: "title",
        aliases: [`fuzz_private_${suffix}`],
      },
      world.admin,
    )
  ).resource_id;
  world.ids.privateAlias = `fuzz_private_${suffix}`;
  if (!world.ids.wide || (await t.send(adminPost("resource_show", { id: world.ids.wide }, world.admin))).status !== 200) {
    world.ids.wide = (
      await post(
        t,
        "datastore_create",
        {
          resource: { name: "fuzz wide" },
          fields: Array.from({ length: WIDE_FIELDS }, (_, i) => ({ id: `f${i}`, type: i % 2 ? "int" : "text" })),
          records: [0, 1, 2].map((r) => Object.fromEntries(Array.from({ length: WIDE_FIELDS }, (_, i) => [`f${i}`, i % 2 ? i + r : `word ${r} a`]))),
        },
        world.admin,
      )
    ).resource_id;
  }
  world.ids.missing = randomUUID();
}

/** Builds the world on an empty target: resources and tokens of every kind. */
export async function createWorld(t: Target, admin: string): Promise<World> {
  const world: World = { admin, secrets: {}, ids: { public: "", publicAlias: "", private: "", privateAlias: "", wide: "", missing: "" } };
  const expiring = await post(t, "api_token_create", { name: "fuzz expired", scope: "admin", expires_in: 1, unit: 1 }, admin);
  const expiresAt = Date.parse(expiring.expires_at);
  world.secrets = {
    admin,
    "bearer-admin": `Bearer ${admin}`,
    read: (await post(t, "api_token_create", { name: "fuzz read", scope: "read" }, admin)).token,
    write: (await post(t, "api_token_create", { name: "fuzz write", scope: "write" }, admin)).token,
    expired: expiring.token,
    garbage: `dsx_${randomUUID()}`,
  };
  world.secrets["bearer-read"] = `Bearer ${world.secrets.read}`;
  const revoked = await post(t, "api_token_create", { name: "fuzz revoked", scope: "admin" }, admin);
  await post(t, "api_token_revoke", { jti: revoked.id }, admin);
  world.secrets.revoked = revoked.token;
  await createResources(t, world);
  await new Promise((r) => setTimeout(r, Math.max(0, expiresAt - Date.now() + 50)));
  return world;
}

/** The checksum a target's store had after its last case: the next case's "before", as nothing
 *  writes between two cases but repairWorld and pruneWorld, which forget it. */
const lastChecksum = new WeakMap<Target, string>();

/** After a successful write: rebuilds the world's resources if a case dropped or gutted them. */
async function repairWorld(t: Target, world: World): Promise<boolean> {
  const probe = async (params: Record<string, unknown>) => {
    const res = await t.send({ path: "/api/action/datastore_search", method: "POST", headers: { authorization: world.admin, "content-type": "application/json" }, body: new TextEncoder().encode(JSON.stringify(params)) });
    return res.status === 200 ? JSON.parse(res.text).result : null;
  };
  const pub = await probe({ resource_id: world.ids.publicAlias, limit: 0 });
  const priv = await probe({ resource_id: world.ids.privateAlias, q: CANARY, limit: 0 });
  const intact =
    pub?.resource_id === world.ids.public &&
    priv?.resource_id === world.ids.private &&
    priv.total > 0 &&
    priv.fields.some((f: { id: string }) => f.id === `col ${CANARY}`);
  if (!intact) {
    lastChecksum.delete(t);
    await createResources(t, world);
  }
  return !intact;
}

/** Deletes resources and tokens that cases created, so long runs stay small. */
export async function pruneWorld(t: Target, world: World): Promise<void> {
  lastChecksum.delete(t);
  const keep = new Set([world.ids.public, world.ids.private, world.ids.wide]);
  const found = await post(t, "resource_search", { limit: 100000 }, world.admin);
  for (const r of found.results as { id: string }[]) {
    if (!keep.has(r.id)) await post(t, "datastore_delete", { resource_id: r.id }, world.admin);
  }
  for (const tok of (await post(t, "api_token_list", {}, world.admin)) as { id: string; name: string }[]) {
    if (!tok.name.startsWith("fuzz ")) await post(t, "api_token_revoke", { jti: tok.id }, world.admin);
  }
}

// ----------------------------------------------------------------------------- sending

function resolveMarkers(text: string, world: World): string {
  return text
    .replaceAll(MARKERS.publicAlias, world.ids.publicAlias)
    .replaceAll(MARKERS.privateAlias, world.ids.privateAlias)
    .replaceAll(MARKERS.public, world.ids.public)
    .replaceAll(MARKERS.private, world.ids.private)
    .replaceAll(MARKERS.wide, world.ids.wide)
    .replaceAll(MARKERS.missing, world.ids.missing);
}

const MARKER_VALUES = new Map<string, keyof World["ids"]>(Object.entries(MARKERS).map(([k, v]) => [v, k as keyof World["ids"]]));

function resolveValue(v: unknown, world: World): unknown {
  if (typeof v === "string") {
    const key = MARKER_VALUES.get(v);
    return key ? world.ids[key] : v;
  }
  if (Array.isArray(v)) return v.map((x) => resolveValue(x, world));
  if (v !== null && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      Object.defineProperty(out, resolveValue(k, world) as string, { value: resolveValue(x, world), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return v;
}

/** A short JSON rendering of a case, for reports: long lists and strings cut, deep values kept. */
export function preview(v: unknown, max = 600): string {
  const text = JSON.stringify(v, (_k, x) => {
    if (Array.isArray(x) && x.length > 12) return [...x.slice(0, 12), `… ${x.length - 12} more`];
    if (typeof x === "string" && x.length > 120) return `${x.slice(0, 120)}… (${x.length} chars)`;
    if (x && typeof x === "object" && !Array.isArray(x) && Object.keys(x).length > 12) {
      const keys = Object.keys(x);
      return { ...Object.fromEntries(keys.slice(0, 12).map((k) => [k, x[k]])), "…": `${keys.length - 12} more keys` };
    }
    return x;
  });
  return (text ?? String(v)).slice(0, max);
}

function asText(v: unknown): string {
  return typeof v === "string" ? v : (JSON.stringify(v) ?? String(v));
}

function formOf(params: Record<string, unknown>): URLSearchParams {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    // A list repeats its key: cap the repeats of a long key so the text stays a sane size.
    if (Array.isArray(v)) for (const x of v.slice(0, Math.ceil(4e6 / (k.length + 1)))) qs.append(k, asText(x));
    else qs.append(k, asText(v));
  }
  return qs;
}

const encoder = new TextEncoder();
const MAX_QUERY = 8000;

/** The HTTP request a case stands for, in the given world. */
export function materialize(c: FuzzCase, world: World): Sent {
  const params = resolveValue(c.params, world) as Record<string, unknown>;
  const headers: Record<string, string> = {};
  const secret = world.secrets[c.token];
  if (secret) headers.authorization = secret;
  // An empty name is another route (Next redirects the trailing slash away); an endless one
  // is refused by Node's HTTP parser (431) before any handler runs: keep names in between.
  const name = (v: unknown) => encodeURIComponent(asText(v).slice(0, 500).toWellFormed() || "_");
  let path: string;
  if (c.action === "dump") {
    const id = params.$id;
    delete params.$id;
    path = `/datastore/dump/${name(id)}`;
  } else path = `/api/action/${name(c.action)}`;
  let body: Uint8Array | undefined;
  let type: string | undefined;
  if (c.encoding === "query") {
    // Real servers refuse request lines past a few kilobytes (431): keep GETs under that by
    // dropping the largest parameters, so the case still tests what the server does.
    let qs = formOf(params).toString();
    const bySize = Object.keys(params)
      .map((k) => [k, formOf({ [k]: params[k] }).toString().length] as const)
      .sort((a, b) => b[1] - a[1]);
    for (const [k] of bySize) {
      if (qs.length <= MAX_QUERY) break;
      delete params[k];
      qs = formOf(params).toString();
    }
    if (qs) path += `?${qs}`;
  } else if (c.encoding === "raw") {
    const bytes = encoder.encode(resolveMarkers(c.raw!.text, world));
    const at = Math.min(c.raw!.at, bytes.length);
    body = new Uint8Array([...bytes.subarray(0, at), ...c.raw!.bytes, ...bytes.subarray(at)]);
    type = "application/json";
  } else if (c.encoding === "form") {
    body = encoder.encode(formOf(params).toString());
    type = "application/x-www-form-urlencoded";
  } else if (c.encoding === "form-json") {
    body = encoder.encode(`${encodeURIComponent(JSON.stringify(params))}=`);
    type = "application/x-www-form-urlencoded";
  } else {
    body = encoder.encode(JSON.stringify(params));
    type = "application/json";
  }
  if (c.contentType !== undefined) type = c.contentType || undefined;
  if (type && body) headers["content-type"] = type;
  return { path, method: c.method, headers, body };
}

// ---------------------------------------------------------------------------------- judge

const TYPES: Record<number, string> = { 400: "Integrity Error", 403: "Authorization Error", 404: "Not Found Error", 409: "Validation Error" };
const JSONP_RE = /^[A-Za-z_$][\w$.]{0,63}$/;

function isRead(c: FuzzCase): boolean {
  return c.action === "dump" || READ_ACTIONS.includes(c.action) || !WRITE_ACTIONS.includes(c.action);
}

/** Whether the answer may show the private resource: a token that reads, and no JSONP. */
function mayReadPrivate(c: FuzzCase, sent: Sent): boolean {
  if (!["admin", "bearer-admin", "write", "read", "bearer-read"].includes(c.token)) return false;
  if (sent.method === "GET" && c.action !== "dump") {
    const callback = new URL(sent.path, "http://x").searchParams.get("callback");
    if (callback !== null && JSONP_RE.test(callback)) return false;
  }
  return true;
}

function envelopeProblems(a: Answer, c: FuzzCase, sent: Sent): string[] {
  const out: string[] = [];
  let text = a.text;
  if (a.contentType.startsWith("application/javascript")) {
    const callback = new URL(sent.path, "http://x").searchParams.get("callback") ?? "";
    if (a.status !== 200 || sent.method !== "GET") out.push(`JSONP answer for ${sent.method} with status ${a.status}`);
    if (!text.startsWith(`${callback}(`) || !text.endsWith(");")) return [...out, "JSONP answer not wrapped in the callback"];
    text = text.slice(callback.length + 1, -2);
  } else if (a.contentType !== "application/json;charset=utf-8") out.push(`content-type ${a.contentType}`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return [...out, "answer is not JSON"];
  }
  if (typeof body === "string") {
    if (![400, 405, 413].includes(a.status)) out.push(`bare string answer with status ${a.status}`);
    if (!body.startsWith("Bad request - ")) out.push(`bare string answer not "Bad request - …"`);
    return out;
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) return [...out, "answer is neither a string nor an envelope"];
  const env = body as Record<string, unknown>;
  if (typeof env.help !== "string") out.push("envelope without help");
  if (a.status === 200) {
    if (env.success !== true || !("result" in env) || "error" in env) out.push("200 without a success envelope");
    return out;
  }
  if (env.success !== false || "result" in env) out.push(`${a.status} envelope with success or result`);
  const error = env.error as Record<string, unknown> | undefined;
  if (!error || typeof error !== "object") return [...out, `${a.status} without an error object`];
  if (error.__type !== TYPES[a.status]) out.push(`${a.status} with __type ${String(error.__type)}`);
  if (a.status === 409) {
    for (const [k, v] of Object.entries(error)) {
      if (k === "__type" || k === "info") continue;
      if (k === "records_row") {
        if (typeof v !== "number") out.push("records_row is not a number");
      } else if (!Array.isArray(v)) out.push(`409 error key ${k} is not a list`);
    }
  } else if (typeof error.message !== "string") out.push(`${a.status} error without a message`);
  void c;
  return out;
}

function dumpProblems(a: Answer): string[] {
  if (a.status === 200) return [];
  if (!a.contentType.startsWith("application/json")) return [`dump error with content-type ${a.contentType}`];
  try {
    const body = JSON.parse(a.text);
    return body?.success === false && typeof body.error?.__type === "string" ? [] : ["dump error without {success: false, error}"];
  } catch {
    return ["dump error is not JSON"];
  }
}

const ALLOWED = new Set([200, 400, 403, 404, 405, 409, 413]);

/** Every way the answer to a case breaks the promise; empty when it keeps it. */
export function judge(c: FuzzCase, sent: Sent, a: Answer, world: World, before: string, after: string): string[] {
  const out: string[] = [];
  if (!ALLOWED.has(a.status)) out.push(`status ${a.status}`);
  if (c.mustFail && a.status < 400) out.push(`accepted (${a.status}) a request that must fail`);
  out.push(...(c.action === "dump" ? dumpProblems(a) : envelopeProblems(a, c, sent)));
  // dry_run as the server read it: a form or a query string sends every value as text (-1.5 is
  // then "-1.5", not a true word: a real upsert, as CKAN's boolean_validator reads it).
  const asked = (resolveValue(c.params, world) as Record<string, unknown>).dry_run;
  const textual = (c.encoding === "form" || c.encoding === "query") && asked !== undefined && asked !== null;
  const dryRun = c.action === "datastore_upsert" && a.status === 200 && asBool(textual ? asText(asked) : asked, false);
  if (before !== after && (a.status !== 200 || isRead(c) || dryRun)) {
    out.push(`the database changed after ${a.status === 200 ? (dryRun ? "a dry run" : "a read") : `a rejected request (${a.status})`}`);
  }
  if (!mayReadPrivate(c, sent)) {
    if (a.text.toLowerCase().includes(CANARY)) out.push("private data in the answer");
    const asked = `${sent.path} ${sent.body ? Buffer.from(sent.body).toString("utf8") : ""}`;
    if (a.text.includes(world.ids.private) && !asked.includes(world.ids.private)) out.push("the private resource's id in the answer");
  }
  const created = c.action === "api_token_create" && a.status === 200;
  for (const [ref, secret] of Object.entries(world.secrets)) {
    if (ref === "garbage" || !secret || secret.startsWith("Bearer ")) continue;
    if (!created && a.text.includes(secret)) out.push(`the ${ref} token's secret in the answer`);
  }
  return out;
}

export interface RunStats {
  cases: number;
  byStatus: Record<number, number>;
  byAction: Record<string, number>;
  rebuilds: number;
  failures: { problems: string[]; sent: string; answer: string; case?: string }[];
}

export function newStats(): RunStats {
  return { cases: 0, byStatus: {}, byAction: {}, rebuilds: 0, failures: [] };
}

/** Sends one case and judges it; returns the problems (also recorded in stats). */
export async function runCase(t: Target, world: World, c: FuzzCase, stats: RunStats): Promise<string[]> {
  const sent = materialize(c, world);
  const before = lastChecksum.get(t) ?? (await t.checksum());
  const answer = await t.send(sent);
  const after = await t.checksum();
  lastChecksum.set(t, after);
  const problems = judge(c, sent, answer, world, before, after);
  stats.cases++;
  stats.byStatus[answer.status] = (stats.byStatus[answer.status] ?? 0) + 1;
  const action = ALL_ACTIONS.includes(c.action) || c.action === "dump" ? c.action : "(unknown action)";
  stats.byAction[action] = (stats.byAction[action] ?? 0) + 1;
  if (problems.length) {
    const body = sent.body ? Buffer.from(sent.body).toString("utf8") : "";
    stats.failures.push({ problems, sent: `${sent.method} ${sent.path.slice(0, 300)} ${JSON.stringify(sent.headers)} ${body.slice(0, 500)}`, answer: `${answer.status} ${answer.text.slice(0, 500)}`, case: preview(c) });
  }
  if (answer.status === 200 && !isRead(c) && (await repairWorld(t, world))) stats.rebuilds++;
  return problems;
}
