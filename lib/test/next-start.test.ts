// `next start` alone serves the whole product from the route handlers (app/**/route.ts): a CKAN
// smoke set through it, on a temporary database, with the security headers, the bare 400 for a
// bad percent-encoded path and the body limit that `npm start` has.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, startServer, tempDir, type RunningServer } from "./server";

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
