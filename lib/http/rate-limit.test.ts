// Quotas through the real route handlers: a request's budget by its token or its address (as
// `npm start`'s server gives it, request.clientAddress), 429 past it with Retry-After, the IETF
// RateLimit fields and CKAN's envelope, on actions, dumps and uploads. The limiter's arithmetic
// is lib/datastore/rate-budget.test.ts's; `next start`'s way to the address, next-start.test.ts's.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, createResource, freshDb } from "../test/api";
import { readGate } from "../datastore/read-gate";
import { dispatch } from "../test/routes";

const ENV = ["DATASTORE_RATE_ANONYMOUS", "DATASTORE_RATE_TOKEN", "DATASTORE_RATE_EXPENSIVE", "DATASTORE_TRUST_PROXY", "DATASTORE_READ_WORKERS"] as const;
const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));

interface Ask {
  from?: string;
  token?: string;
  headers?: Record<string, string>;
  method?: string;
  body?: string;
}

/** A request to `path` from the client address `from` (none: a caller in this process). */
async function ask(path: string, { from, token, headers = {}, method = "POST", body = "{}" }: Ask = {}) {
  const h: Record<string, string> = { "content-type": "application/json", ...headers };
  if (token) h.authorization = token;
  const request = new Request(`http://localhost${path}`, { method, headers: h, body: method === "GET" ? undefined : body });
  if (from) Object.defineProperty(request, "clientAddress", { value: from });
  const res = await dispatch(request);
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text.startsWith("{") ? JSON.parse(text) : text };
}

let resourceId: string;

beforeAll(async () => {
  freshDb();
  process.env.DATASTORE_RATE_ANONYMOUS = "60:5";
  process.env.DATASTORE_RATE_TOKEN = "60:3";
  process.env.DATASTORE_RATE_EXPENSIVE = "30";
  delete process.env.DATASTORE_TRUST_PROXY;
  resourceId = await createResource({ fields: [{ id: "a", type: "int" }], records: [{ a: 1 }] });
});

afterAll(() => {
  for (const k of ENV) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

const WHOAMI = "/api/action/datastore_whoami";

/** Another client asks: the app server is shared, and anonymous budgets bind (rate-limit.ts). */
const bystander = () => ask(WHOAMI, { from: "10.8.8.8" });

describe("request budgets", () => {
  it("an address's burst passes, each answer saying what is left; past it, 429 with Retry-After, the RateLimit fields and CKAN's envelope", async () => {
    await bystander();
    const seen: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await ask(WHOAMI, { from: "10.0.0.1" });
      expect(res.status).toBe(200);
      seen.push(res.headers.get("ratelimit")!);
    }
    expect(seen[0]).toBe('"anonymous";r=4;t=1, "expensive";r=30000;t=0');
    expect(seen[4]).toBe('"anonymous";r=0;t=5, "expensive";r=30000;t=0');
    const refused = await ask(WHOAMI, { from: "10.0.0.1" });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(refused.headers.get("ratelimit-policy")).toBe('"anonymous";q=60;w=60;dsx-burst=5, "expensive";q=30000;w=60;dsx-unit="ms"');
    expect(refused.headers.get("ratelimit")).toBe('"anonymous";r=0;t=5, "expensive";r=30000;t=0');
    expect(refused.body).toEqual({
      help: "http://localhost/api/3/action/help_show?name=datastore_whoami",
      success: false,
      error: { __type: "Rate Limit Error", message: "Rate limit: this client's budget of requests is spent for now; try again in 1 s", policy: "anonymous" },
    });
    // another address has its own budget
    expect((await ask(WHOAMI, { from: "10.0.0.2" })).status).toBe(200);
  });

  it("counts every answer: dumps, uploads and requests it cannot read", async () => {
    await bystander();
    for (let i = 0; i < 5; i++) expect((await ask(WHOAMI, { from: "10.0.0.3" })).status).toBe(200);
    const dump = await ask(`/datastore/dump/${resourceId}`, { from: "10.0.0.3", method: "GET" });
    expect([dump.status, dump.body.error?.__type, dump.headers.get("retry-after")]).toEqual([429, "Rate Limit Error", "1"]);
    const upload = await ask("/api/upload?filename=a.csv", { from: "10.0.0.3", body: "a\n1\n", headers: { "content-type": "text/csv" } });
    expect([upload.status, upload.body.error?.__type]).toEqual([429, "Rate Limit Error"]);
    const unreadable = await ask("/api/action/datastore_search", { from: "10.0.0.3", body: "{not json" });
    expect(unreadable.status).toBe(429);
    expect((await ask("/api/action/no_such_action", { from: "10.0.0.3" })).status).toBe(429);
    // and an unreadable request, before the budget is spent, counts as one
    const fresh = await ask("/api/action/datastore_search", { from: "10.0.0.4", body: "{not json" });
    expect(fresh.status).toBe(400);
    expect(fresh.headers.get("ratelimit")).toMatch(/^"anonymous";r=4;/);
    const unknown = await ask("/api/action/no_such_action", { from: "10.0.0.4" });
    expect([unknown.status, unknown.body, unknown.headers.get("ratelimit")?.slice(0, 16)]).toEqual([400, '"Bad request - Action name not known: no_such_action"', '"anonymous";r=3;']);
    const put = await ask(WHOAMI, { from: "10.0.0.4", method: "PUT" });
    expect([put.status, put.headers.get("allow"), put.headers.get("ratelimit")?.slice(0, 16)]).toEqual([405, "GET, POST", '"anonymous";r=2;']);
  });

  it("a token's budget is the token's, from any address; the operator's own token and in-process callers have none", async () => {
    const created = await ask("/api/action/api_token_create", { token: ADMIN, body: JSON.stringify({ name: "partner", scope: "read" }) });
    const token = created.body.result.token as string;
    const statuses: number[] = [];
    for (const from of ["10.1.0.1", "10.1.0.2", "10.1.0.3", "10.1.0.4"]) statuses.push((await ask(WHOAMI, { from, token })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await ask(WHOAMI, { from: "10.1.0.5", token });
    expect(refused.body.error.policy).toBe("token");
    expect(refused.headers.get("ratelimit-policy")).toMatch(/^"token";q=60;w=60;dsx-burst=3, /);
    for (let i = 0; i < 10; i++) {
      const admin = await ask(WHOAMI, { from: "10.1.0.6", token: ADMIN });
      expect([admin.status, admin.headers.get("ratelimit")]).toEqual([200, null]);
    }
    for (let i = 0; i < 10; i++) expect((await ask(WHOAMI)).status).toBe(200);
  });

  it("an admin gives a token its own budget (api_token_create, api_token_patch), or none, or the default back", async () => {
    const admin = (action: string, params: unknown) => ask(`/api/action/${action}`, { token: ADMIN, body: JSON.stringify(params) });
    const created = (await admin("api_token_create", { name: "tight", rate_per_minute: 2 })).body.result;
    expect(created.rate_per_minute).toBe(2);
    const spend = async (n: number) => {
      const out: number[] = [];
      for (let i = 0; i < n; i++) out.push((await ask(WHOAMI, { from: "10.4.0.1", token: created.token })).status);
      return out;
    };
    expect(await spend(3)).toEqual([200, 200, 429]);
    const patched = await admin("api_token_patch", { id: created.id, rate_per_minute: 0 });
    expect([patched.status, patched.body.result.rate_per_minute, patched.body.result.name]).toEqual([200, 0, "tight"]);
    expect(await spend(5)).toEqual([200, 200, 200, 200, 200]);
    expect((await ask(WHOAMI, { from: "10.4.0.1", token: created.token })).headers.get("ratelimit-policy")).toMatch(/^"expensive"/);
    expect((await admin("api_token_patch", { id: created.id, rate_per_minute: null })).status).toBe(200);
    // the default (60 a minute, 3 at once here), on a bucket of its own name
    expect((await ask(WHOAMI, { from: "10.4.0.1", token: created.token })).headers.get("ratelimit-policy")).toMatch(/^"token";q=60;w=60;dsx-burst=3, /);
    const listed = (await admin("api_token_list", {})).body.result.find((t: { id: string }) => t.id === created.id);
    expect(listed.rate_per_minute).toBeNull();
    // only an admin, and only a natural number or null, for a token that exists
    const writer = (await admin("api_token_create", { name: "writer", scope: "write" })).body.result.token;
    expect((await ask("/api/action/api_token_patch", { token: writer, body: JSON.stringify({ id: created.id, rate_per_minute: 0 }) })).status).toBe(403);
    const bad = await admin("api_token_patch", { id: created.id, rate_per_minute: -1 });
    expect([bad.status, Object.keys(bad.body.error)]).toEqual([409, ["__type", "rate_per_minute"]]);
    expect((await admin("api_token_patch", { id: created.id })).body.error.rate_per_minute).toEqual(["Missing value"]);
    expect((await admin("api_token_patch", { id: "no-such-token", rate_per_minute: 5 })).status).toBe(404);
    expect((await admin("api_token_create", { name: "x", rate_per_minute: "many" })).status).toBe(409);
  });

  it("believes X-Forwarded-For only from as many proxies as DATASTORE_TRUST_PROXY names", async () => {
    // Not trusted: one proxy's clients are one client.
    const viaProxy = (client: string) => ask(WHOAMI, { from: "10.2.0.1", headers: { "x-forwarded-for": `1.2.3.4, ${client}` } });
    await bystander();
    const untrusted: number[] = [];
    for (let i = 0; i < 6; i++) untrusted.push((await viaProxy(`10.9.0.${i}`)).status);
    expect(untrusted).toEqual([200, 200, 200, 200, 200, 429]);
    process.env.DATASTORE_TRUST_PROXY = "1";
    try {
      // Trusted: the last address the proxy added is the client; what the client wrote before it is not.
      for (let i = 0; i < 6; i++) expect((await viaProxy(`10.9.1.${i}`)).status).toBe(200);
      await bystander();
      const forged: number[] = [];
      for (let i = 0; i < 6; i++) forged.push((await ask(WHOAMI, { from: "10.2.0.1", headers: { "x-forwarded-for": `10.9.2.${i}, 10.9.3.1` } })).status);
      expect(forged).toEqual([200, 200, 200, 200, 200, 429]);
    } finally {
      delete process.env.DATASTORE_TRUST_PROXY;
    }
  });

  it("0 or off turns a budget off", async () => {
    process.env.DATASTORE_RATE_ANONYMOUS = "off";
    process.env.DATASTORE_RATE_EXPENSIVE = "0";
    try {
      for (let i = 0; i < 10; i++) {
        const res = await ask(WHOAMI, { from: "10.3.0.1" });
        expect([res.status, res.headers.get("ratelimit-policy")]).toEqual([200, null]);
      }
    } finally {
      process.env.DATASTORE_RATE_ANONYMOUS = "60:5";
      process.env.DATASTORE_RATE_EXPENSIVE = "30";
    }
  });
});

describe("a lone client", () => {
  it("is not held back: past its budget it is let through, the headers saying it is spent, until another client asks", async () => {
    freshDb();
    for (const k of ENV.filter((k) => k !== "DATASTORE_READ_WORKERS")) delete process.env[k];
    const statuses = new Map<number, number>();
    let last: Awaited<ReturnType<typeof ask>> | undefined;
    for (let i = 0; i < 700; i++) {
      last = await ask(WHOAMI, { from: "10.5.0.1" });
      statuses.set(last.status, (statuses.get(last.status) ?? 0) + 1);
    }
    expect(Object.fromEntries(statuses)).toEqual({ 200: 700 });
    // 700 asked of a burst of 300 (and 10 a second since): what is left is about nothing
    const left = Number(/^"anonymous";r=(\d+);/.exec(last!.headers.get("ratelimit")!)![1]);
    expect(left).toBeLessThan(50);
    expect(last!.headers.get("ratelimit-policy")).toBe('"anonymous";q=600;w=60;dsx-burst=300, "expensive";q=60000;w=60;dsx-unit="ms"');
    // someone else arrives: the lone client's spent budget now binds, and the newcomer is served
    expect((await ask(WHOAMI, { from: "10.5.0.2" })).status).toBe(200);
    const after: number[] = [];
    for (let i = 0; i < 30; i++) after.push((await ask(WHOAMI, { from: "10.5.0.1" })).status);
    expect(after).toContain(429);
  });

  it("is held to budgets the operator set, alone or not", async () => {
    freshDb();
    process.env.DATASTORE_RATE_ANONYMOUS = "60:5";
    process.env.DATASTORE_RATE_EXPENSIVE = "30";
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await ask(WHOAMI, { from: "10.5.1.1" })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    // the expensive budget too: a lone address, as if it had read for five minutes, is told
    // to wait once its next request finds the budget spent
    freshDb();
    expect((await ask(WHOAMI, { from: "10.5.1.2" })).status).toBe(200);
    readGate()!.charge("address:10.5.1.2", 300_000);
    expect((await ask(WHOAMI, { from: "10.5.1.2" })).status).toBe(200);
    expect(readGate()!.refusal("address:10.5.1.2")).toBeGreaterThan(0);
  });
});

describe("the budget of expensive reads, through the read scheduler", () => {
  it("past it, a client's expensive reads answer 429 while its cheap pages and others' expensive reads still answer", async () => {
    process.env.DATASTORE_READ_WORKERS = "2"; // SQLite: reads on workers, through the scheduler
    freshDb();
    process.env.DATASTORE_RATE_EXPENSIVE = "60";
    const records = Array.from({ length: 30_000 }, (_, i) => ({ n: i, w: `w${(i * 7919) % 30_011}` }));
    const id = await createResource({ fields: [{ id: "n", type: "int" }, { id: "w", type: "text" }], records });
    // A sort of every row on a column no index holds: judged expensive on either engine.
    const SLOW = (offset: number) => JSON.stringify({ resource_id: id, sort: "w desc, n desc", offset, limit: 1, include_total: false });
    const CHEAP = JSON.stringify({ resource_id: id, limit: 5 });
    const search = (from: string, body: string) => ask("/api/action/datastore_search", { from, body });
    expect((await search("10.6.0.1", SLOW(29_990))).status).toBe(200);
    // another client is about, so an address's budget binds; and this client's reading so far,
    // as if it had scanned for five minutes (owed: one burst, a minute; a kept answer, the same
    // page again, would read nothing)
    await bystander();
    readGate()!.charge("address:10.6.0.1", 300_000);
    const refused = await search("10.6.0.1", SLOW(29_980));
    expect([refused.status, refused.body.error?.__type, refused.body.error?.policy]).toEqual([429, "Rate Limit Error", "expensive"]);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.headers.get("ratelimit")).toMatch(/"expensive";r=0;t=\d+$/);
    expect((await search("10.6.0.1", CHEAP)).status).toBe(200);
    expect((await search("10.6.0.2", SLOW(29_970))).status).toBe(200);
  });
});
