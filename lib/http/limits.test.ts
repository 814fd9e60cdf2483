// The size limits of lib/config.ts, each set low through its environment variable: every one
// answers a clear error (413 for the body, 400 for nesting, 409 for the rest) and writes nothing.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, call, freshDb, storeChecksum } from "../test/api";
import { admin, badRequest, createBooks, invalid, ok, search } from "../test/contract";

let R: string;
const saved = { ...process.env };

beforeAll(async () => {
  freshDb();
  R = await createBooks({ primary_key: "title" });
});

afterEach(() => {
  for (const k of Object.keys(process.env)) if (k.startsWith("DATASTORE_MAX_") && !(k in saved)) delete process.env[k];
});

describe("configurable limits", () => {
  it("request body: 413, with or without a Content-Length", async () => {
    process.env.DATASTORE_MAX_BODY_BYTES = "1000";
    const big = JSON.stringify({ resource_id: R, q: "x".repeat(2000) });
    const res = await call("datastore_search", {}, { body: big });
    expect(res.status).toBe(413);
    expect(res.body).toMatch(/^Bad request - Request body is larger than 1000 bytes/);
    // A streamed body has no Content-Length: refused once it passes the limit.
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < 10; i++) c.enqueue(new TextEncoder().encode(" ".repeat(200)));
        c.close();
      },
    });
    const { dispatch } = await import("../test/routes");
    const req = new Request("http://localhost/api/action/datastore_search", { method: "POST", body: stream, duplex: "half" } as RequestInit);
    expect((await dispatch(req)).status).toBe(413);
  });

  it("records per request: 409 records on create and upsert, before authorization", async () => {
    process.env.DATASTORE_MAX_RECORDS = "3";
    const before = await storeChecksum();
    const four = [1, 2, 3, 4].map((n) => ({ title: `t${n}` }));
    const up = await admin("datastore_upsert", { resource_id: R, method: "insert", records: four });
    invalid(up, "records");
    expect(up.body.error.records[0]).toMatch(/at most 3 records/);
    invalid(await admin("datastore_create", { resource_id: R, records: four }), "records");
    invalid(await admin("datastore_create", { resource: { name: "n" }, records: four }), "records");
    invalid(await call("datastore_upsert", { resource_id: R, records: four }), "records"); // anonymous: still 409
    expect(await storeChecksum()).toBe(before);
    ok(await admin("datastore_upsert", { resource_id: R, method: "insert", records: four.slice(1) }));
  });

  it("fields per resource: 409 fields", async () => {
    process.env.DATASTORE_MAX_FIELDS = "3";
    const fields = ["a", "b", "c", "d"].map((id) => ({ id, type: "text" }));
    invalid(await admin("datastore_create", { resource: { name: "wide" }, fields }), "fields");
    // Adding to an existing table counts the fields it has (the books have nine).
    invalid(await admin("datastore_create", { resource_id: R, fields: [{ id: "extra", type: "text" }] }), "fields");
  });

  it("q and full_text length: 409", async () => {
    process.env.DATASTORE_MAX_Q_LENGTH = "10";
    invalid(await call("datastore_search", { resource_id: R, q: "tolstoy war and peace" }), "q");
    invalid(await call("datastore_search", { resource_id: R, q: { title: "war and peace and more" } }), "q");
    invalid(await call("datastore_search", { resource_id: R, full_text: "tolstoy war and peace" }), "full_text");
    invalid(await call("datastore_value_counts", { resource_id: R, field: "author", q: "tolstoy war and peace" }), "q");
    expect((await search({ resource_id: R, q: "tolstoy" })).total).toBe(2);
  });

  it("JSON nesting: 400 JSON Error for a body, 409 for a GET parameter; never a 500", async () => {
    process.env.DATASTORE_MAX_JSON_DEPTH = "20";
    const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
    badRequest(await call("datastore_search", {}, { body: `{"resource_id": "${R}", "filters": {"title": ${deep(50)}}}` }), /^Bad request - JSON Error: .*20 levels/);
    // Far past what JSON.stringify could recurse through.
    delete process.env.DATASTORE_MAX_JSON_DEPTH;
    for (const action of ["datastore_search", "datastore_create", "datastore_upsert", "datastore_delete", "resource_search"]) {
      badRequest(await call(action, {}, { token: ADMIN, body: `{"resource_id": "${R}", "records": [{"meta": ${deep(100_000)}}]}` }), /JSON Error/);
      badRequest(await call(action, {}, { token: ADMIN, body: deep(100_000) }), /JSON Error/);
    }
    invalid(await call("datastore_search", { resource_id: R, filters: `{"meta": ${deep(5000)}}` }, { method: "GET" }), "filters");
    // Within the limit a nested JSON value is stored and read back.
    const nested = JSON.parse(deep(30).replace("[]", "[1]"));
    ok(await admin("datastore_upsert", { resource_id: R, records: [{ title: "deep", meta: nested }] }));
    expect((await search({ resource_id: R, filters: { title: "deep" } })).records[0].meta).toEqual(nested);
  });
});
