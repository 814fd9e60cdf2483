// Contract §1: routes, methods, reading parameters, the envelope and its status codes, and
// the order of checks that decides which error wins.
import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN, call, createResource, freshDb } from "../test/api";
import { badRequest, createBooks, denied, fails, helpFor, invalid, notFound, ok, token } from "../test/contract";
import { dispatch } from "../test/routes";

let R: string;
let PRIVATE: string;
let READ: string;

beforeAll(async () => {
  freshDb();
  R = await createBooks();
  PRIVATE = await createBooks({}, true);
  READ = await token("read");
});

const WRITE_ACTIONS = ["datastore_create", "datastore_upsert", "datastore_delete", "datastore_records_delete"];
const GET_POST_USE_POST = "Bad request - JSON Error: Invalid request. Please use POST method for your request";

describe("routes and methods", () => {
  it("answers /api/action and /api/3/action with the same envelope", async () => {
    for (const path of ["/api/action", "/api/3/action"]) {
      const res = await call("datastore_search", { resource_id: R, limit: 1, fields: "_id" }, { path });
      expect(res.body).toEqual({
        help: helpFor("datastore_search"),
        success: true,
        result: expect.objectContaining({ records: [{ _id: 1 }] }),
      });
    }
  });

  it("accepts GET and POST for read actions", async () => {
    const answers = [];
    for (const method of ["GET", "POST"] as const) {
      const { _links, ...found } = ok(await call("datastore_search", { resource_id: R, limit: 2 }, { method }), "datastore_search");
      expect(_links.next, method).toMatch(/offset=2$/);
      const info = ok(await call("datastore_info", { resource_id: R }, { method }), "datastore_info");
      // the whole database's size: other test files write to it meanwhile (PostgreSQL)
      expect(info.meta.db_size, method).toBeGreaterThan(0);
      delete info.meta.db_size;
      answers.push([found, info]);
    }
    // The same answer either way (only _links differ: a GET's carry its query string).
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0][0].records.map((r: { _id: number }) => r._id)).toEqual([1, 2]);
  });

  it.each(WRITE_ACTIONS)("answers GET on %s with a bare 400 string", async (action) => {
    badRequest(await call(action, { resource_id: R }, { method: "GET", token: ADMIN }), GET_POST_USE_POST);
  });

  it("answers an unknown action with a bare 400 string, whatever the method", async () => {
    for (const method of ["GET", "POST"] as const) {
      badRequest(await call("nope", {}, { method }), "Bad request - Action name not known: nope");
    }
    for (const name of ["__proto__", "constructor", "toString", "datastore_search_sql", "hasOwnProperty"]) {
      badRequest(await call(name, {}), `Bad request - Action name not known: ${name}`);
    }
  });

  it("answers other methods with 405", async () => {
    const put = await call("datastore_search", { resource_id: R }, { method: "PUT" });
    expect(put.status).toBe(405);
    for (const method of ["DELETE", "PATCH"]) {
      const res = await dispatch(new Request("http://localhost/api/action/datastore_search", { method }));
      expect(res.status).toBe(405);
    }
  });
});

describe("reading the parameters", () => {
  it("answers undecodable JSON with a bare 400 JSON Error string", async () => {
    for (const body of ["{", "{'a': 1}", "nope", '{"a":1}x', "\u0000"]) {
      badRequest(await call("datastore_search", {}, { body }), /^Bad request - JSON Error: /);
    }
  });

  it("answers JSON that is not an object with a bare 400 string", async () => {
    for (const body of ["[]", '[{"resource_id": "x"}]', '"x"', "5", "null", "true"]) {
      badRequest(await call("datastore_search", {}, { body }), /^Bad request - JSON Error: /);
      badRequest(await call("datastore_create", {}, { body, token: ADMIN }), /^Bad request - JSON Error: /);
    }
  });

  it("answers a body that is not UTF-8 with a bare 400 string", async () => {
    const res = await dispatch(
      new Request("http://localhost/api/action/datastore_search", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
      }),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatch(/^Bad request - JSON Error: /);
  });

  it("reads an empty body as {}", async () => {
    fails(await call("datastore_search", {}, { body: "" }), 409, { resource_id: ["Missing value"] }, "datastore_search");
    fails(await call("datastore_search", {}, { body: "  \n" }), 409, { resource_id: ["Missing value"] }, "datastore_search");
  });

  it("reads JSON whatever the content type says", async () => {
    ok(await call("datastore_search", { resource_id: R }, { contentType: "text/plain" }));
    ok(await call("datastore_search", { resource_id: R }, { contentType: "application/json; charset=utf-8" }));
  });

  it("reads a form post as strings, repeated keys as lists", async () => {
    const body = new URLSearchParams([
      ["resource_id", R],
      ["limit", "2"],
      ["include_total", "false"],
      ["fields", "_id"],
      ["fields", "year"],
    ]).toString();
    const r = ok(await call("datastore_search", {}, { body, contentType: "application/x-www-form-urlencoded" }));
    expect(r.records).toEqual([
      { _id: 1, year: 1869 },
      { _id: 2, year: 1877 },
    ]);
    expect(r).not.toHaveProperty("total");
  });

  it("reads a legacy form whose one key is the JSON body", async () => {
    for (const value of ["", "1"]) {
      const body = `${encodeURIComponent(JSON.stringify({ resource_id: R, limit: 1 }))}=${value}`;
      const r = ok(await call("datastore_search", {}, { body, contentType: "application/x-www-form-urlencoded" }));
      expect(r.limit).toBe(1);
    }
  });

  it("refuses multipart bodies with a bare 400 string", async () => {
    badRequest(await call("datastore_search", {}, { body: "--x--", contentType: "multipart/form-data; boundary=x" }), /^Bad request - /);
  });

  it("ignores unknown parameters on writes", async () => {
    const r = ok(await call("datastore_upsert", { resource_id: R, records: [], whatever: 1 }, { token: ADMIN }));
    expect(r).toEqual({ resource_id: R, records: [] });
  });

  it("rejects unknown parameters on search with 409 __extras", async () => {
    fails(await call("datastore_search", { resource_id: R, foo: "bar" }), 409, { __extras: ['invalid value "foo"'] });
  });
});

describe("the envelope and status codes", () => {
  it("answers success with 200 and exactly help, success, result — creates too", async () => {
    const res = await call("datastore_create", { resource: { name: "x" }, fields: [{ id: "a", type: "text" }] }, { token: ADMIN });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ help: helpFor("datastore_create"), success: true, result: expect.any(Object) });
  });

  it("answers 409 Validation Error with one list of strings per bad input", async () => {
    const res = await call("datastore_search", { resource_id: R, limit: "x", offset: -1 });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      help: helpFor("datastore_search"),
      success: false,
      error: { __type: "Validation Error", limit: ["Invalid integer"], offset: ['invalid value "-1"'] },
    });
    expect(res.body).not.toHaveProperty("result");
  });

  it("answers 404 Not Found Error with a message", async () => {
    fails(await call("datastore_search", { resource_id: "missing" }), 404, { message: 'Not found: Resource "missing" was not found.' }, "datastore_search");
  });

  it("answers 403 Authorization Error with a message", async () => {
    fails(
      await call("datastore_upsert", { resource_id: R, records: [] }),
      403,
      { message: "Access denied: Action datastore_upsert requires an authenticated user" },
      "datastore_upsert",
    );
  });

  it("answers 400 Integrity Error (an envelope) for a list of strings as fields", async () => {
    const params = { resource: { name: "x" }, fields: ["a"] };
    fails(await call("datastore_create", params, { token: ADMIN }), 400, { message: expect.any(String), data: params }, "datastore_create");
  });
});

describe("order of checks (§1)", () => {
  it.each(WRITE_ACTIONS)("%s: a missing resource_id is 409 even for anonymous users", async (action) => {
    invalid(await call(action, {}), "resource_id");
  });

  it.each(["datastore_upsert", "datastore_delete", "datastore_records_delete"])(
    "%s: anonymous on a missing resource is 403, not 404",
    async (action) => {
      denied(await call(action, { resource_id: "missing", filters: {} }));
    },
  );

  it.each(["datastore_upsert", "datastore_delete", "datastore_records_delete"])(
    "%s: a token with write scope on a missing resource is 404",
    async (action) => {
      notFound(await call(action, { resource_id: "missing", filters: {} }, { token: ADMIN }));
    },
  );

  it("writes validate before authorizing: bad params are 409 for anonymous users", async () => {
    invalid(await call("datastore_upsert", { resource_id: R, method: "nope" }), "method");
    invalid(await call("datastore_delete", { resource_id: R, filters: [1] }), "filters");
    invalid(await call("datastore_records_delete", { resource_id: R }), "filters");
    invalid(await call("datastore_create", { resource: { name: "x" }, fields: [{ id: "_bad" }] }), "fields");
    invalid(await call("datastore_create", { resource_id: "abc", resource: { name: "x" } }), "resource");
  });

  it("read-only tokens may not write", async () => {
    denied(await call("datastore_upsert", { resource_id: R, records: [] }, { token: READ }));
    denied(await call("datastore_create", { resource: { name: "x" } }, { token: READ }));
  });

  it("search: anonymous search of a missing resource is 404", async () => {
    notFound(await call("datastore_search", { resource_id: "missing" }));
    notFound(await call("datastore_info", { resource_id: "missing" }));
  });

  it("search: a missing resource_id is 409 before anything else", async () => {
    invalid(await call("datastore_search", {}), "resource_id");
    invalid(await call("datastore_info", {}), "resource_id");
  });

  it("search: a private resource is 404-checked, then 403 for anonymous users, then query-checked", async () => {
    denied(await call("datastore_search", { resource_id: PRIVATE }));
    denied(await call("datastore_info", { resource_id: PRIVATE }));
    denied(await call("datastore_search", { resource_id: PRIVATE, fields: ["nope"], sort: "nope" }));
    invalid(await call("datastore_search", { resource_id: PRIVATE, fields: ["nope"] }, { token: READ }), "fields");
    ok(await call("datastore_search", { resource_id: PRIVATE }, { token: READ }));
  });

  it("search: parameter errors win over a missing resource, field errors lose to it", async () => {
    invalid(await call("datastore_search", { resource_id: "missing", limit: -1 }), "limit");
    notFound(await call("datastore_search", { resource_id: "missing", fields: ["nope"] }));
  });
});

describe("JSONP (legacy)", () => {
  it("wraps a successful GET and makes it anonymous", async () => {
    const id = await createResource({ fields: [{ id: "a", type: "text" }], records: [{ a: "x" }] });
    const res = await dispatch(new Request(`http://localhost/api/action/datastore_search?resource_id=${id}&callback=cb`));
    expect(res.headers.get("content-type")).toBe("application/javascript;charset=utf-8");
    const text = await res.text();
    expect(text).toMatch(/^cb\(\{.*\}\);$/s);
    const body = JSON.parse(text.slice(3, -2));
    expect(body).toMatchObject({ success: true, result: { records: [{ _id: 1, a: "x" }] } });
    const priv = await dispatch(
      new Request(`http://localhost/api/action/datastore_search?resource_id=${PRIVATE}&callback=cb`, { headers: { authorization: ADMIN } }),
    );
    expect(priv.status).toBe(403);
  });
});
