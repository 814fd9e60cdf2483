// `next start` alone serves the whole product from the route handlers (app/**/route.ts): a CKAN
// smoke set through it, on a temporary database, with the security headers, the bare 400 for a
// bad percent-encoded path and the body limit that `npm start` has; and, through both servers,
// what the route handlers cannot do by themselves: an upload's import on a thread of its own,
// each anonymous client's own turn among expensive reads, and its budget spent by the socket's
// address (under Next, before Next's work). `npm start` runs the compiled server (dist/),
// whose threads start their compiled entries.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, ensureBuilt, startArgs, startServer, tempDir, type RunningServer } from "./server";

const ADMIN = "next-start-admin";
let server: RunningServer;

beforeAll(async () => {
  await ensureBuilt();
  server = await startServer({ dbFile: path.join(tempDir("next-start-"), "d.db"), adminToken: ADMIN, via: "next start", env: { DATASTORE_MAX_BODY_BYTES: "100000" } });
}, 300_000);

afterAll(async () => {
  await server?.stop();
});

async function api(action: string, body?: unknown, opts: { token?: string; get?: Record<string, string>; prefix?: string } = {}) {
  const qs = opts.get ? `?${new URLSearchParams(opts.get)}` : "";
  const res = await fetch(`${server.url}${opts.prefix ?? "/api/action"}/${action}${qs}`, {
    method: opts.get ? "GET" : "POST",
    headers: { ...(opts.token ? { authorization: opts.token } : {}), ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

describe("next start", () => {
  let id = "";
  let privateId = "";

  it("creates and upserts, and searches by POST and GET on both action paths", async () => {
    const created = await api("datastore_create", { resource: { name: "books" }, fields: [{ id: "title", type: "text" }, { id: "year", type: "int" }], primary_key: "title", records: [{ title: "Emma", year: 1815 }] }, { token: ADMIN });
    expect(created.status).toBe(200);
    id = created.body.result.resource_id;
    expect((await api("datastore_upsert", { resource_id: id, records: [{ title: "Emma", year: 1816 }, { title: "Ulysses", year: 1922 }] }, { token: ADMIN })).status).toBe(200);
    const post = await api("datastore_search", { resource_id: id, sort: "year" });
    expect(post.body.result.records.map((r: { title: string; year: number }) => [r.title, r.year])).toEqual([["Emma", 1816], ["Ulysses", 1922]]);
    const get = await api("datastore_search", undefined, { get: { resource_id: id, q: "ulysses" }, prefix: "/api/3/action" });
    expect([get.status, get.body.result.total, get.body.result.records[0].title]).toEqual([200, 1, "Ulysses"]);
  });

  it("answers errors in CKAN's envelope: 409 validation, 404 unknown action as a bare 400", async () => {
    const bad = await api("datastore_search", { resource_id: id, limit: "x" });
    expect([bad.status, bad.body.success, bad.body.error.__type, bad.body.error.limit]).toEqual([409, false, "Validation Error", ["Invalid integer"]]);
    // Raised inside the engine, which the instrumentation bundle opened: its error class is
    // another copy than the route's, and must still answer 409, never 500.
    const cast = await api("datastore_upsert", { resource_id: id, method: "insert", records: [{ title: "Dune", year: "soon" }] }, { token: ADMIN });
    expect([cast.status, cast.body.error.__type]).toEqual([409, "Validation Error"]);
    const duplicate = await api("datastore_upsert", { resource_id: id, method: "insert", records: [{ title: "Emma", year: 1 }] }, { token: ADMIN });
    expect([duplicate.status, duplicate.body.error.__type]).toEqual([409, "Validation Error"]);
    const unknown = await api("no_such_action", {});
    expect([unknown.status, unknown.body]).toEqual([400, "Bad request - Action name not known: no_such_action"]);
  });

  it("streams a dump", async () => {
    const res = await fetch(`${server.url}/datastore/dump/${id}?format=csv`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("_id,title,year\r\n1,Emma,1816\n2,Ulysses,1922\n");
  });

  it("refuses a private resource without a token, in the search and the dump", async () => {
    privateId = (await api("datastore_create", { resource: { name: "secret", private: true }, fields: [{ id: "x", type: "text" }] }, { token: ADMIN })).body.result.resource_id;
    expect((await api("datastore_search", { resource_id: privateId })).status).toBe(403);
    expect((await fetch(`${server.url}/datastore/dump/${privateId}`)).status).toBe(403);
    expect((await api("datastore_search", { resource_id: privateId }, { token: ADMIN })).status).toBe(200);
  });

  it("keeps npm start's security headers, body limit and bare 400 for a bad percent-encoded path", async () => {
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    for (const res of [page, await fetch(`${server.url}/api/action/resource_search`)]) {
      expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    }
    const bad = await fetch(`${server.url}/api/action/%E0%A4%A`);
    expect([bad.status, await bad.json(), bad.headers.get("x-frame-options")]).toEqual([400, "Bad request - the path is not valid percent-encoding", "DENY"]);
    const big = await api("datastore_search", { resource_id: id, q: "x".repeat(200_000) });
    expect(big.status).toBe(413);
  });
});

describe.each(["next start", "npm start"] as const)("through %s", (via) => {
  let s: RunningServer;
  const MANY_ROWS = 300_000;

  beforeAll(async () => {
    await ensureBuilt();
    // Two read workers, one for expensive reads: they take turns per client. No learned
    // indexes, which would make the expensive sort below cheap after a few runs.
    // Anonymous budgets on (five at once, one a second): each server reads the address its own way.
    const env = { DATASTORE_READ_WORKERS: "2", DATASTORE_EXPENSIVE_READS: "1", DATASTORE_ADAPTIVE_INDEXES: "0", DATASTORE_UPLOAD_DIR: tempDir("next-start-uploads-"), DATASTORE_RATE_ANONYMOUS: "60:5", DATASTORE_RATE_EXPENSIVE: "60" };
    s = await startServer({ dbFile: path.join(tempDir("both-servers-"), "d.db"), adminToken: ADMIN, via, env });
  }, 300_000);

  afterAll(async () => {
    await s?.stop();
  });

  it.runIf(via === "npm start")("runs the compiled server, with no TypeScript loader", () => {
    const args = startArgs();
    expect(args.join(" ")).not.toMatch(/tsx/);
    expect(args.at(-1)).toBe("dist/lib/server/main.js");
    expect(fs.existsSync(path.join(ROOT, "dist/lib/server/main.js"))).toBe(true);
  });

  const post = async (route: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${s.url}${route}`, { method: "POST", headers: { authorization: ADMIN, ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
    return { status: res.status, body: await res.json() };
  };

  it("imports an upload on a thread of its own: a search and another resource's write are answered while it runs", async () => {
    const other = (await post("/api/action/datastore_create", { resource: { name: "other" }, fields: [{ id: "a", type: "int" }], records: [{ a: 1 }] })).body.result.resource_id;
    let csv = "n,word,v\n";
    for (let i = 0; i < MANY_ROWS; i++) csv += `${i},w${i % 1000},${(i * 7919) % 100_003}\n`;
    const uploaded = await post("/api/upload?filename=many.csv", csv);
    expect(uploaded.status).toBe(200);
    let finished = 0;
    const importing = post(`/api/upload/${uploaded.body.result.upload_id}/import`, { resource_id: "many" }, { "content-type": "application/json" }).then((r) => {
      finished = performance.now();
      return r;
    });
    // once the import has its transaction open, ask around it
    await new Promise((r) => setTimeout(r, 500));
    const found = await post("/api/action/datastore_search", { resource_id: other });
    const answered = performance.now();
    const wrote = await post("/api/action/datastore_upsert", { resource_id: other, method: "insert", records: [{ a: 2 }] });
    const written = performance.now();
    const imported = await importing;
    expect([found.status, found.body.result.records, wrote.status]).toEqual([200, [{ _id: 1, a: 1 }], 200]);
    expect([imported.status, imported.body.result.rows]).toEqual([200, MANY_ROWS]);
    expect(finished, "the import was still running when the search was answered").toBeGreaterThan(answered);
    expect(finished, "and when the other resource's write went in").toBeGreaterThan(written);
  }, 120_000);

  it("stops an import when its upload is deleted: nothing is loaded", async () => {
    let csv = "n,word\n";
    for (let i = 0; i < MANY_ROWS; i++) csv += `${i},w${i % 1000}\n`;
    const id = (await post("/api/upload?filename=stopped.csv", csv)).body.result.upload_id;
    const res = await fetch(`${s.url}/api/upload/${id}/import`, {
      method: "POST",
      headers: { authorization: ADMIN, "content-type": "application/json", accept: "application/x-ndjson" },
      body: JSON.stringify({ resource_id: "stopped" }),
    });
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = (await reader.read()).value ?? ""; // the import has begun
    const deleted = await fetch(`${s.url}/api/upload/${id}`, { method: "DELETE", headers: { authorization: ADMIN } });
    expect(deleted.status).toBe(200);
    for (let r = await reader.read(); !r.done; r = await reader.read()) text += r.value;
    const last = JSON.parse(text.trim().split("\n").at(-1)!);
    expect(last).toEqual({ success: false, error: { __type: "Validation Error", message: "interrupted: nothing was loaded" } });
    expect((await post("/api/action/datastore_search", { resource_id: "stopped" })).status).toBe(404);
  }, 120_000);

  it("gives each anonymous client its own turn among expensive reads, by its socket's address, whatever it claims", async () => {
    // A sort of every row on columns no index holds: expensive, a few hundred ms at least.
    const SLOW = JSON.stringify({ resource_id: "many", sort: "word desc, v desc, n desc", offset: MANY_ROWS - 10, limit: 1, include_total: false });
    const order: string[] = [];
    const ask = (name: string, localAddress: string, headers: Record<string, string> = {}) =>
      new Promise<void>((resolve, reject) => {
        const req = http.request(`${s.url}/api/action/datastore_search`, { method: "POST", localAddress, headers: { "content-type": "application/json", ...headers } }, (res) => {
          res.resume();
          res.on("end", () => {
            order.push(`${name} ${res.statusCode}`);
            resolve();
          });
        });
        req.on("error", reject);
        req.end(SLOW);
      });
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
    // A sends three, the third claiming to be B; then B sends one. While A's first runs, the
    // rest wait their turns: A's second, then B's (its own turn), then A's third. Were every
    // anonymous client one (or a claim believed), B's would wait for all of A's.
    const a1 = ask("A1", "127.0.0.2");
    await pause(150);
    const a2 = ask("A2", "127.0.0.2");
    await pause(30);
    const a3 = ask("A3", "127.0.0.2", { "x-datastore-peer": "127.0.0.3", "x-forwarded-for": "127.0.0.3" });
    await pause(30);
    const b1 = ask("B1", "127.0.0.3");
    const bAsked = order.length;
    await Promise.all([a1, a2, a3, b1]);
    expect(bAsked, "A's first read was over before B asked: the sort is too quick to test turns").toBe(0);
    expect(order).toEqual(["A1 200", "A2 200", "B1 200", "A3 200"]);
  }, 120_000);

  it("spends an anonymous budget by the socket's address, whatever the client claims: past it, 429 with Retry-After, the RateLimit fields and CKAN's envelope (under Next, answered before Next's work)", async () => {
    const whoami = (localAddress: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: { error?: unknown } }>((resolve, reject) => {
        const req = http.request(`${s.url}/api/action/datastore_whoami`, { method: "POST", localAddress, headers: { "content-type": "application/json", ...headers } }, (res) => {
          let text = "";
          res.on("data", (c: Buffer) => (text += c.toString()));
          res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text) }));
        });
        req.on("error", reject);
        req.end("{}");
      });
    // another client has asked lately: the server is shared, and anonymous budgets bind
    expect((await whoami("127.0.0.10")).status).toBe(200);
    const answers = [];
    // nor does a claim to have been admitted already (lib/http/admission.ts) spare the budget
    const admitted = `0 ${JSON.stringify({ client: "address:127.0.0.9", spent: [] })}`;
    for (let i = 0; i < 6; i++) answers.push(await whoami("127.0.0.9", { "x-forwarded-for": `10.0.0.${i}`, "x-datastore-peer": `10.0.0.${i}`, "x-datastore-admitted": admitted }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(answers[0].headers["ratelimit-policy"]).toBe('"anonymous";q=60;w=60;dsx-burst=5, "expensive";q=60000;w=60;dsx-unit="ms"');
    expect(answers[0].headers.ratelimit).toBe('"anonymous";r=4;t=1, "expensive";r=60000;t=0');
    const refused = answers[5];
    expect([refused.headers["retry-after"], refused.headers.ratelimit]).toEqual(["1", '"anonymous";r=0;t=5, "expensive";r=60000;t=0']);
    expect(refused.body).toEqual({
      help: `${s.url}/api/3/action/help_show?name=datastore_whoami`,
      success: false,
      error: { __type: "Rate Limit Error", message: "Rate limit: this client's budget of requests is spent for now; try again in 1 s", policy: "anonymous" },
    });
    expect([refused.headers["x-frame-options"], refused.headers["x-content-type-options"]]).toEqual(["DENY", "nosniff"]);
    // Through Next, refused as it arrived (lib/server/next-admission.ts), not by the route: Next
    // streams a route's answer without a length, and the refusal has one.
    expect(refused.headers["content-length"]).toBeDefined();
    if (via === "next start") expect(answers[0].headers["content-length"]).toBeUndefined();
    expect((await whoami("127.0.0.11")).status).toBe(200);
  });
});
