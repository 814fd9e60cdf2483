// Security (issue: "shows private data to no one without the right token"). A private resource
// whose name, description, a field id, an alias and its values all carry a canary word is asked
// for through every path — search, resource_search, resource_show, _table_metadata, info,
// value counts, dumps, writes, error messages, _links — by every kind of outsider (no token, an
// unknown, expired or revoked token, a JSONP request). None may see the canary or the real id
// behind the alias; a read token sees it all. Then the tokens themselves: random, stored only
// as a hash, never logged or echoed, revocable, expiring.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDatastore } from "../datastore";
import { limitPages } from "../datastore/sqlite/test-support";
import { ADMIN, call, currentStore, freshDb, isPostgres, type CallOptions, type CallResult } from "../test/api";
import { admin, createBooks, ok, token } from "../test/contract";
import { schemaText, simulateDiskFull } from "../test/pg-support";
import { dispatch } from "../test/routes";

const CANARY = "zqxcanaryqxz";
const ALIAS = "secret_alias";
let dbFile: string;
let PUBLIC: string;
let PRIVATE: string;
let READ: string;
let WRITE: string;
let EXPIRED: string;
let REVOKED: string;

beforeAll(async () => {
  dbFile = freshDb();
  PUBLIC = await createBooks({ aliases: "public_alias" });
  PRIVATE = ok(
    await admin("datastore_create", {
      resource: { name: `Secret ${CANARY}`, description: `about ${CANARY}`, private: true },
      fields: [
        { id: `field ${CANARY}`, type: "text", info: { label: CANARY } },
        { id: "title", type: "text" },
        { id: "year", type: "int" },
      ],
      records: [
        { [`field ${CANARY}`]: `value ${CANARY}`, title: `War ${CANARY}`, year: 1869 },
        { [`field ${CANARY}`]: "other", title: "Tolstoy", year: 1877 },
      ],
      aliases: [ALIAS],
      primary_key: "title",
    }),
  ).resource_id;
  READ = await token("read");
  WRITE = await token("write");
  EXPIRED = (await (await getDatastore()).tokens.create("expired", "admin", new Date(Date.now() - 1000))).token;
  const revoked = ok(await admin("api_token_create", { name: "revoked", scope: "admin" }));
  ok(await admin("api_token_revoke", { jti: revoked.id }));
  REVOKED = revoked.token;
});

type Caller = { name: string; opts: CallOptions; jsonp?: boolean };
const outsiders = (): Caller[] => [
  { name: "no token", opts: {} },
  { name: "an unknown token", opts: { token: "dsx_not-a-real-token" } },
  { name: "an expired token", opts: { token: EXPIRED } },
  { name: "a revoked token", opts: { token: REVOKED } },
  { name: "Bearer + a revoked token", opts: { token: `Bearer ${REVOKED}` } },
  { name: "JSONP, even with an admin token", opts: { token: ADMIN, method: "GET" }, jsonp: true },
];

/** Nothing of the private resource: not the canary, not the real id (unless the caller sent it). */
function noLeak(res: CallResult | { text: string }, asked: string, what: string): void {
  const text = "text" in res ? res.text : JSON.stringify(res.body);
  expect(text.toLowerCase(), what).not.toContain(CANARY);
  if (!asked.includes(PRIVATE)) expect(text, what).not.toContain(PRIVATE);
}

async function as(caller: Caller, action: string, params: Record<string, unknown>): Promise<CallResult> {
  if (caller.jsonp) {
    const res = await call(action, { ...params, callback: "cb" }, caller.opts);
    // An error is not wrapped; a success is `cb({...});`.
    if (typeof res.body === "string" && res.body.startsWith("cb(")) res.body = JSON.parse(res.body.slice(3, -2));
    return res;
  }
  return call(action, params, caller.opts);
}

describe("private resources leak to no outsider", () => {
  for (const id of ["id", "alias"]) {
    it(`datastore_search, datastore_info, resource_show, value counts by ${id}: 403, nothing revealed`, async () => {
      const target = id === "id" ? PRIVATE : ALIAS;
      for (const caller of outsiders()) {
        const reads: [string, Record<string, unknown>][] = [
          ["datastore_search", { resource_id: target }],
          ["datastore_search", { resource_id: target, q: "war" }],
          // Names of fields are checked only after authorization: a 409 would confirm a field exists.
          ["datastore_search", { resource_id: target, fields: `field ${CANARY.slice(0, 3)}`, sort: "nope desc", filters: JSON.stringify({ nope: 1 }) }],
          ["datastore_search", { resource_id: target, q: JSON.stringify({ nope: "x" }) }],
          ["datastore_info", { resource_id: target }],
          ["resource_show", { id: target }],
          ["datastore_value_counts", { resource_id: target, field: "title" }],
          ["datastore_value_counts", { resource_id: target, field: "nope" }],
          ["datastore_histogram", { resource_id: target, field: "_id" }],
          ["datastore_histogram", { resource_id: target, field: "nope" }],
        ];
        for (const [action, params] of reads) {
          if (caller.jsonp && action === "datastore_value_counts") continue;
          const res = await as(caller, action, params);
          const what = `${action} ${JSON.stringify(params)} as ${caller.name}`;
          expect(res.status, what).toBe(403);
          expect(res.body.error.__type).toBe("Authorization Error");
          expect(res.body).not.toHaveProperty("result");
          noLeak(res, target, what);
        }
      }
    });
  }

  it("_table_metadata lists neither the private id nor its alias", async () => {
    for (const caller of outsiders()) {
      const all = await as(caller, "datastore_search", { resource_id: "_table_metadata", limit: 1000 });
      expect(all.status, caller.name).toBe(200);
      const names = all.body.result.records.map((r: { name: string }) => r.name);
      expect(names).toContain(PUBLIC);
      expect(names).not.toContain(PRIVATE);
      expect(names).not.toContain(ALIAS);
      noLeak(all, "", `_table_metadata as ${caller.name}`);
      for (const params of [{ filters: JSON.stringify({ name: ALIAS }) }, { filters: JSON.stringify({ alias_of: PRIVATE }) }, { q: "secret" }]) {
        const res = await as(caller, "datastore_search", { resource_id: "_table_metadata", ...params });
        expect(res.body.result.total, JSON.stringify(params)).toBe(0);
      }
    }
    const insider = ok(await call("datastore_search", { resource_id: "_table_metadata", limit: 1000 }, { token: READ }));
    expect(insider.records.map((r: { name: string }) => r.name)).toEqual(expect.arrayContaining([PRIVATE, ALIAS]));
  });

  it("resource_search lists it only to a token that may read it", async () => {
    for (const caller of outsiders()) {
      for (const params of [{}, { query: "name:secret" }, { query: `description:${CANARY}` }, { query: `id:${PRIVATE}` }, { order_by: "row_count", limit: 1000 }]) {
        const res = await as(caller, "resource_search", params);
        expect(res.status).toBe(200);
        expect(res.body.result.results.map((r: { id: string }) => r.id)).not.toContain(PRIVATE);
        noLeak(res, JSON.stringify(params), `resource_search ${JSON.stringify(params)} as ${caller.name}`);
      }
    }
    const insider = ok(await call("resource_search", { query: "name:secret" }, { token: READ }));
    expect(insider.results.map((r: { id: string }) => r.id)).toEqual([PRIVATE]);
  });

  it("dumps, in every format, by id and by alias", async () => {
    const dump = async (id: string, query: string, auth?: string) => {
      const res = await dispatch(new Request(`http://localhost/datastore/dump/${id}?${query}`, { headers: auth ? { authorization: auth } : {} }));
      return { status: res.status, text: await res.text(), headers: res.headers };
    };
    for (const id of [PRIVATE, ALIAS]) {
      for (const format of ["csv", "tsv", "json", "xml"]) {
        for (const caller of outsiders().filter((c) => !c.jsonp)) {
          const res = await dump(id, `format=${format}&q=war&fields=nope`, caller.opts.token);
          expect(res.status, `${format} as ${caller.name}`).toBe(403);
          noLeak(res, id, `dump ${id} ${format} as ${caller.name}`);
        }
        const insider = await dump(id, `format=${format}`, READ);
        expect(insider.status).toBe(200);
        expect(insider.text).toContain(CANARY);
        // A private download must not sit in a shared cache.
        expect(insider.headers.get("cache-control")).toBe("private, no-store");
      }
    }
  });

  it("writes: refused before anything about the resource is said", async () => {
    const writes: [string, Record<string, unknown>][] = [
      ["datastore_upsert", { resource_id: PRIVATE, records: [{ title: "x", nope: 1 }] }],
      ["datastore_upsert", { resource_id: PRIVATE, method: "update", records: [{ title: `War ${CANARY}` }] }],
      ["datastore_delete", { resource_id: PRIVATE, filters: { nope: 1 } }],
      ["datastore_records_delete", { resource_id: PRIVATE, filters: { title: "x" } }],
      ["datastore_create", { resource_id: PRIVATE, fields: [{ id: "more", type: "text" }] }],
      ["datastore_create", { resource_id: PUBLIC, aliases: [ALIAS] }],
    ];
    const callers = [...outsiders().filter((c) => !c.jsonp), { name: "a read token", opts: { token: READ } }];
    for (const caller of callers) {
      for (const [action, params] of writes) {
        const res = await call(action, params, caller.opts);
        expect(res.status, `${action} as ${caller.name}`).toBe(403);
        noLeak(res, JSON.stringify(params), `${action} as ${caller.name}`);
      }
    }
    // Nothing changed: the write token still finds both rows.
    expect(ok(await call("datastore_search", { resource_id: PRIVATE }, { token: WRITE })).total).toBe(2);
  });

  it("_links carry only what the caller sent", async () => {
    const res = ok(await call("datastore_search", { resource_id: PUBLIC, limit: 1, q: "war" }, { method: "GET" }));
    expect(res._links.start).toBe(`/api/action/datastore_search?resource_id=${PUBLIC}&limit=1&q=war`);
    expect(res._links.next).toBe(`/api/action/datastore_search?resource_id=${PUBLIC}&limit=1&q=war&offset=1`);
    const denied = await call("datastore_search", { resource_id: ALIAS, limit: 1 }, { method: "GET" });
    expect(denied.body).not.toHaveProperty("result");
    expect(JSON.stringify(denied.body)).not.toContain("_links");
  });

  it("a read token sees everything the outsiders could not", async () => {
    for (const id of [PRIVATE, ALIAS]) {
      expect(JSON.stringify(ok(await call("datastore_search", { resource_id: id }, { token: READ })))).toContain(CANARY);
      expect(JSON.stringify(ok(await call("datastore_info", { resource_id: id }, { token: `Bearer ${READ}` })))).toContain(CANARY);
      expect(ok(await call("resource_show", { id }, { token: READ })).name).toBe(`Secret ${CANARY}`);
      expect(ok(await call("datastore_value_counts", { resource_id: id, field: `field ${CANARY}` }, { token: READ })).values).toHaveLength(2);
    }
  });
});

describe("tokens", () => {
  const logged: string[] = [];
  const spies = (["log", "error", "warn", "info", "debug"] as const).map((m) =>
    vi.spyOn(console, m).mockImplementation((...args: unknown[]) => {
      logged.push(args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack}` : typeof a === "string" ? a : JSON.stringify(a))).join(" "));
    }),
  );
  afterAll(() => spies.forEach((s) => s.mockRestore()));

  it("are 256 random bits, all different", async () => {
    const secrets = await Promise.all(Array.from({ length: 40 }, (_, i) => admin("api_token_create", { name: `t${i}` }).then((r) => ok(r).token as string)));
    expect(new Set(secrets).size).toBe(40);
    for (const s of secrets) expect(s).toMatch(/^dsx_[A-Za-z0-9_-]{43}$/); // 43 base64url characters = 256 bits
    // Every base64url character turns up across 40 × 43 of them (a fixed or narrow alphabet would not).
    expect(new Set(secrets.join("").slice(0, 40 * 47).replace(/dsx_/g, "")).size).toBeGreaterThan(60);
  });

  it("are stored only as a SHA-256 hash: the secret is nowhere in the database", async () => {
    const t = ok(await admin("api_token_create", { name: "stored", scope: "write" }));
    const { engine } = await getDatastore();
    const stored = (await engine.tokens.list()).find((x) => x.id === t.id)!;
    expect(stored.hash).toBe(createHash("sha256").update(t.token).digest("hex"));
    expect(Object.values(stored)).not.toContain(t.token);
    ok(await call("datastore_search", { resource_id: PUBLIC }, { token: t.token })); // use it once
    if (isPostgres) {
      // Every row of every table of the store.
      const { databaseUrl, schema } = currentStore() as { databaseUrl: string; schema: string };
      const text = await schemaText(databaseUrl, schema);
      expect(text).toContain(stored.hash);
      expect(text).not.toContain(t.token.slice(4));
      return;
    }
    // Every file beside the database too (a write-ahead log, a journal), and in its group files' directory.
    const files = fs.readdirSync(path.dirname(dbFile), { recursive: true, encoding: "utf8" }).map((f) => path.join(path.dirname(dbFile), f)).filter((f) => fs.statSync(f, { throwIfNoEntry: false })?.isFile());
    for (const file of files) {
      if (!fs.existsSync(file)) continue;
      const bytes = fs.readFileSync(file);
      expect(bytes.includes(Buffer.from(t.token)), file).toBe(false);
      expect(bytes.includes(Buffer.from(t.token.slice(4))), file).toBe(false);
    }
  });

  it("are never echoed: not by the list, nor by errors that mention them, nor by failed requests", async () => {
    const t = ok(await admin("api_token_create", { name: "echo" }));
    const list = JSON.stringify(ok(await admin("api_token_list")));
    expect(list).toContain(t.id);
    expect(list).not.toContain(t.token);
    const probes: CallResult[] = [
      await admin("api_token_revoke", { token: `${t.token}x` }), // a near miss: 404 without the secret
      await call("datastore_upsert", { resource_id: PUBLIC, records: [{ nope: t.token }] }, { token: t.token }), // 403
      await call("datastore_search", { resource_id: "missing" }, { token: t.token }), // 404
      await call("datastore_search", { resource_id: PUBLIC, nope: 1 }, { token: `Bearer ${t.token}` }), // 409
      await call("api_token_list", {}, { token: t.token }), // 403
      await call("datastore_search", {}, { token: t.token, body: "{not json" }), // 400
    ];
    for (const res of probes) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(JSON.stringify(res.body)).not.toContain(t.token.slice(4, 30));
      expect([...res.headers.values()].join(" ")).not.toContain(t.token.slice(4, 30));
    }
  });

  it("are never logged, even when a request fails inside", async () => {
    const t = ok(await admin("api_token_create", { name: "logs", scope: "admin" }));
    // The next write fails: a full disk (SQLite's page cap; PostgreSQL's disk_full, simulated).
    const { engine } = await getDatastore();
    const store = currentStore();
    const pgFull = typeof store === "string" ? undefined : await simulateDiskFull(store.databaseUrl, store.schema);
    if (!pgFull) limitPages(engine, 0);
    let full: CallResult;
    try {
      full = await call("datastore_create", { resource: { name: t.token }, records: [{ a: t.token }] }, { token: t.token });
    } finally {
      if (pgFull) await pgFull.lift();
      else limitPages(engine, null);
    }
    // The write got as far as the database, and failed there.
    expect(full.status).toBe(409);
    expect(full.body.error).toEqual({ __type: "Validation Error", database: ["the database is full; nothing was written"] });
    expect((await call("datastore_search", { resource_id: PRIVATE, q: t.token }, { token: t.token })).status).toBe(200);
    expect((await call("datastore_search", { resource_id: PUBLIC, filters: { year: t.token } }, { token: `Bearer ${t.token}` })).status).toBe(409);
    for (const line of logged) expect(line).not.toContain(t.token.slice(4));
  });

  it("are revocable and expiring: afterwards the request is anonymous", async () => {
    const t = ok(await admin("api_token_create", { name: "short", scope: "read", expires_in: 1, unit: 1 }));
    expect((await call("datastore_search", { resource_id: PRIVATE }, { token: t.token })).status).toBe(200);
    await new Promise((r) => setTimeout(r, Date.parse(t.expires_at) - Date.now() + 50));
    expect((await call("datastore_search", { resource_id: PRIVATE }, { token: t.token })).status).toBe(403);

    const r = ok(await admin("api_token_create", { name: "revoke me", scope: "read" }));
    expect((await call("datastore_search", { resource_id: PRIVATE }, { token: r.token })).status).toBe(200);
    ok(await admin("api_token_revoke", { jti: r.id }));
    expect((await call("datastore_search", { resource_id: PRIVATE }, { token: r.token })).status).toBe(403);
    expect((await call("datastore_search", { resource_id: PRIVATE }, { token: EXPIRED })).status).toBe(403);
  });

  it("must match whole: a prefix, a suffix or a one-character change is anonymous", async () => {
    for (const wrong of [READ.slice(0, -1), `${READ}x`, `${READ.slice(0, -1)}${READ.endsWith("A") ? "B" : "A"}`, READ.toUpperCase(), ` ${READ} `.replace(READ, READ.slice(1))]) {
      expect((await call("datastore_search", { resource_id: PRIVATE }, { token: wrong })).status, wrong).toBe(403);
    }
  });
});
