// The audit trail through the API (issue 29, part 3): every write action records its time,
// token name (never the secret), action, resource and rows, in its own transaction (a write
// rolled back records nothing), and datastore_audit_list reads it: admins everything, a write
// token one resource it may write; filtered by resource, token and time; paged.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { getDatastore } from "../datastore";
import { ACTIONS } from "../datastore/actions";
import { pruneAudit } from "../datastore/audit-retention";
import { call, freshDb, send } from "../test/api";
import { admin, denied, invalid, ok } from "../test/contract";

let writer: { id: string; token: string };
let R: string;

const as = (action: string, params: Record<string, unknown>) => call(action, params, { token: writer.token });
/** The newest entries of resource `id` as admin, newest first, as [action, token, rows]. */
async function entries(resourceId?: string, extra: Record<string, unknown> = {}) {
  const out = ok(await admin("datastore_audit_list", { ...(resourceId ? { resource_id: resourceId } : {}), ...extra }), "datastore_audit_list");
  return out.records as { id: number; time: string; token: string | null; token_id: string | null; action: string; resource_id: string | null; rows: number | null; detail: Record<string, unknown> | null }[];
}
const brief = async (resourceId?: string) => (await entries(resourceId)).map((e) => [e.action, e.token, e.rows]);

beforeAll(async () => {
  freshDb();
  writer = ok(await admin("api_token_create", { name: "etl", scope: "write" }));
  R = ok(await as("datastore_create", { resource: { name: "audited" }, fields: [{ id: "n", type: "int" }], records: [{ n: 1 }, { n: 2 }], primary_key: "n" })).resource_id;
});

describe("every write is recorded", () => {
  it("with its token's name and id, action, resource and rows, and never the secret", async () => {
    ok(await as("datastore_upsert", { resource_id: R, records: [{ n: 3 }, { n: 4 }, { n: 5 }] }));
    ok(await as("datastore_records_delete", { resource_id: R, filters: { n: 5 } }));
    ok(await as("resource_patch", { id: R, description: "checked" }));
    const view = ok(await as("datastore_view_create", { resource_id: R, name: "mine" })).id;
    ok(await as("datastore_view_patch", { id: view, name: "ours" }));
    ok(await as("datastore_view_delete", { id: view }));
    expect(await brief(R)).toEqual([
      ["datastore_view_delete", "etl", null],
      ["datastore_view_patch", "etl", null],
      ["datastore_view_create", "etl", null],
      ["resource_patch", "etl", null],
      ["datastore_records_delete", "etl", 1],
      ["datastore_upsert", "etl", 3],
      ["datastore_create", "etl", 2],
    ]);
    const all = await entries(R);
    expect(all[0]).toEqual({ id: expect.any(Number), time: expect.any(String), token: "etl", token_id: writer.id, action: "datastore_view_delete", resource_id: R, rows: null, detail: { view, name: "ours" } });
    expect(Date.now() - Date.parse(all[0].time)).toBeLessThan(60_000);
    expect(JSON.stringify(all)).not.toContain(writer.token);
  });

  it("a table dropped, a resource deleted, and token changes (by the admin token's name)", async () => {
    const id = ok(await as("datastore_create", { resource_id: "gone", fields: [{ id: "a", type: "text" }], records: [{ a: "x" }] })).resource_id;
    ok(await as("datastore_delete", { resource_id: id }));
    ok(await as("resource_delete", { id }));
    expect((await brief(id)).slice(0, 2)).toEqual([
      ["resource_delete", "etl", 0],
      ["datastore_delete", "etl", 1],
    ]);
    const t = ok(await admin("api_token_create", { name: "temp", scope: "read" }));
    ok(await admin("api_token_revoke", { jti: t.id }));
    const tokens = (await entries(undefined, { token: "DATASTORE_ADMIN_TOKEN", limit: 2 })).map((e) => [e.action, e.resource_id, e.detail?.token]);
    expect(tokens).toEqual([
      ["api_token_revoke", null, "temp"],
      ["api_token_create", null, "temp"],
    ]);
  });

  it("records nothing for a write rolled back: a dry run, a refused record, a refused token", async () => {
    const before = await entries();
    ok(await as("datastore_upsert", { resource_id: R, records: [{ n: 9 }], dry_run: true }));
    expect((await as("datastore_upsert", { resource_id: R, method: "insert", records: [{ n: 10 }, { n: 1 }] })).status).toBe(409);
    invalid(await admin("api_token_create", { name: "x", resources: ["no-such-resource"] }), "resources");
    expect(await entries()).toEqual(before);
  });
});

describe("every write action of the registry records an entry", () => {
  let n = 0;
  const scratch = async () => ok(await admin("datastore_create", { resource: { name: "scratch" }, fields: [{ id: "a", type: "int" }], records: [{ a: 1 }] })).resource_id as string;
  const view = async () => ok(await admin("datastore_view_create", { resource_id: R, name: `scratch ${n++}` })).id as string;
  /** How to make each write succeed (what it needs is made first, as admin). A write action
   *  with no line here fails the first test, so a new one is covered by itself. */
  const WRITES: Record<string, () => Promise<Record<string, unknown>>> = {
    datastore_create: async () => ({ resource_id: `made_${n++}`, fields: [{ id: "a", type: "int" }] }),
    datastore_upsert: async () => ({ resource_id: R, records: [{ n: 100 + n++ }] }),
    datastore_delete: async () => ({ resource_id: await scratch() }),
    datastore_records_delete: async () => ({ resource_id: await scratch(), filters: { a: 1 } }),
    resource_patch: async () => ({ id: R, description: `patched ${n++}` }),
    resource_delete: async () => ({ id: await scratch() }),
    api_token_create: async () => ({ name: `made ${n++}` }),
    api_token_revoke: async () => ({ jti: ok(await admin("api_token_create", { name: "doomed" })).id }),
    api_token_patch: async () => ({ id: ok(await admin("api_token_create", { name: "budgeted" })).id, rate_per_minute: 100 }),
    datastore_view_create: async () => ({ resource_id: R, name: `made ${n++}` }),
    datastore_view_patch: async () => ({ id: await view(), name: `renamed ${n++}` }),
    datastore_view_delete: async () => ({ id: await view() }),
  };
  const writes = Object.keys(ACTIONS).filter((name) => !ACTIONS[name].read);

  it("knows how to call each", () => {
    expect(writes.filter((name) => !WRITES[name])).toEqual([]);
  });

  it.each(writes.filter((name) => WRITES[name]))("%s", async (name) => {
    const params = await WRITES[name]();
    const newest = (await entries(undefined, { limit: 1 }))[0]?.id ?? 0;
    ok(await admin(name, params));
    const after = await entries(undefined, { limit: 10 });
    expect(after.filter((e) => e.id > newest).map((e) => [e.action, e.token])).toEqual([[name, "DATASTORE_ADMIN_TOKEN"]]);
  });
});

describe("uploads", () => {
  const CSV = "city,people\nOslo,709000\nLima,10000000\n";
  const upload = async (auth: string) =>
    ok(await send("/api/upload?filename=c.csv", { body: CSV, token: auth, headers: { "content-type": "application/octet-stream" } })).upload_id as string;
  const importIt = (id: string, params: Record<string, unknown>, auth: string) =>
    send(`/api/upload/${id}/import`, { body: JSON.stringify(params), token: auth, headers: { "content-type": "application/json" } });

  it("an import is recorded with its uploader; a token limited to resources imports into its own only", async () => {
    process.env.DATASTORE_UPLOAD_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "audit-uploads-"));
    const made = ok(await importIt(await upload(writer.token), { mode: "new" }, writer.token)).resource_id as string;
    expect((await brief(made)).slice(0, 2)).toEqual([
      ["import", "etl", 2],
      ["datastore_create", "etl", 0],
    ]);
    const limited = ok(await admin("api_token_create", { name: "partner", scope: "write", resources: [made] })).token;
    denied(await importIt(await upload(limited), { mode: "new" }, limited));
    denied(await importIt(await upload(limited), { mode: "append", resource_id: R }, limited));
    ok(await importIt(await upload(limited), { mode: "append", resource_id: made }, limited));
    expect((await brief(made))[0]).toEqual(["import", "partner", 2]);
  });
});

describe("datastore_audit_list", () => {
  it("is an admin's for every resource; a write token's for one it may write; no one else's", async () => {
    const reader = ok(await admin("api_token_create", { name: "reader", scope: "read" })).token;
    const other = ok(await admin("api_token_create", { name: "other", scope: "write", resources: [R] })).token;
    denied(await as("datastore_audit_list", {}));
    denied(await call("datastore_audit_list", { resource_id: R }, { token: reader }));
    denied(await call("datastore_audit_list", { resource_id: R }));
    expect(ok(await as("datastore_audit_list", { resource_id: R })).records.length).toBeGreaterThan(0);
    expect(ok(await call("datastore_audit_list", { resource_id: R, limit: 1 }, { token: other, method: "GET" })).records).toHaveLength(1);
  });

  it("filters by token and time, and pages by offset or by cursor, newest first", async () => {
    const all = await entries(R, { limit: 1000 });
    const ids = all.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect((await entries(R, { limit: 2, offset: 1 })).map((e) => e.id)).toEqual(ids.slice(1, 3));
    const first = ok(await admin("datastore_audit_list", { resource_id: R, limit: 3 }));
    const next = ok(await admin("datastore_audit_list", { resource_id: R, limit: 3, cursor: first.next_cursor }));
    expect(next.records.map((e: { id: number }) => e.id)).toEqual(ids.slice(3, 6));
    expect(ok(await admin("datastore_audit_list", { resource_id: R, limit: 1000 })).next_cursor).toBe(null);
    expect((await entries(R, { token: "nobody" })).length).toBe(0);
    const byWriter = all.filter((e) => e.token_id === writer.id).map((e) => e.id);
    expect(byWriter.length).toBeGreaterThan(0);
    expect((await entries(R, { token: writer.id, limit: 1000 })).map((e) => e.id)).toEqual(byWriter);
    expect((await entries(R, { token: "etl", limit: 1000 })).map((e) => e.id)).toEqual(byWriter);
    const middle = all[Math.floor(all.length / 2)].time;
    const since = await entries(R, { since: middle, limit: 1000 });
    const until = await entries(R, { until: middle, limit: 1000 });
    expect(since.length + until.length).toBe(all.length);
    expect(since.every((e) => e.time >= middle) && until.every((e) => e.time < middle)).toBe(true);
    expect(await entries(R, { until: "2000-01-01" })).toEqual([]);
  });

  it("answers 409 for a bad time, limit or cursor", async () => {
    invalid(await admin("datastore_audit_list", { since: "yesterday" }), "since");
    invalid(await admin("datastore_audit_list", { until: "2026-13-45" }), "until");
    invalid(await admin("datastore_audit_list", { limit: -1 }), "limit");
    invalid(await admin("datastore_audit_list", { cursor: "abc" }), "cursor");
  });
});

describe("retention", () => {
  it("removes the entries older than the days kept, and no others", async () => {
    const { engine } = await getDatastore();
    const count = async () => (await entries(undefined, { limit: 1000 })).length;
    const before = await count();
    expect(await pruneAudit(engine, 1)).toBe(0);
    expect(await count()).toBe(before);
    expect(await pruneAudit(engine, 1, Date.now() + 2 * 86_400_000)).toBe(before);
    expect(await count()).toBe(0);
  });
});
