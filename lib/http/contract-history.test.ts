// History (issue 27) through the action API: datastore_info's version, search and dump as_of,
// datastore_record_history, datastore_changes with its cursor, and their refusals (409, 404).
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { call, freshDb, send } from "../test/api";
import { admin, fails, notFound, ok, token } from "../test/contract";

let R: string;
let writer: string;
const versions: number[] = [];

beforeAll(async () => {
  freshDb();
  writer = await token("write", { name: "etl" });
});

const info = async (id = R) => ok(await admin("datastore_info", { resource_id: id })).meta;

/** Creates [a 1, b 2, c 3], then b := 20 by token "etl", then deletes c: versions[0..2]. */
beforeEach(async () => {
  R = ok(
    await admin("datastore_create", {
      resource: { name: "h" },
      fields: [
        { id: "k", type: "text" },
        { id: "n", type: "int4" },
      ],
      primary_key: "k",
      records: [
        { k: "a", n: 1 },
        { k: "b", n: 2 },
        { k: "c", n: 3 },
      ],
    }),
  ).resource_id;
  versions.length = 0;
  versions.push((await info()).version);
  ok(await call("datastore_upsert", { resource_id: R, records: [{ k: "b", n: 20 }] }, { token: writer }));
  versions.push((await info()).version);
  ok(await admin("datastore_records_delete", { resource_id: R, filters: { k: "c" } }));
  versions.push((await info()).version);
});

const rows = async (params: Record<string, unknown>) => ok(await call("datastore_search", { resource_id: R, fields: "k,n", sort: "k", ...params }), "datastore_search");

describe("versions", () => {
  it("datastore_info: the version grows with each write, with its time and what history keeps", async () => {
    expect(versions[1]).toBeGreaterThan(versions[0]);
    expect(versions[2]).toBeGreaterThan(versions[1]);
    const meta = await info();
    expect(meta).toMatchObject({ version: versions[2], last_modified: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/) });
    expect(meta.history).toEqual({ enabled: true, versions: expect.any(Number), rows: 2, bytes: expect.any(Number), oldest_version: expect.any(Number) });
  });
});

describe("datastore_search as_of", () => {
  it("answers the rows as they were, with filters, totals and the version it read", async () => {
    const past = await rows({ as_of: versions[0] });
    expect(past.records).toEqual([
      { k: "a", n: 1 },
      { k: "b", n: 2 },
      { k: "c", n: 3 },
    ]);
    expect(past.total).toBe(3);
    expect(past.as_of).toEqual({ version: versions[0], time: expect.stringMatching(/Z$/) });
    expect((await rows({ as_of: versions[1], filters: { n: 20 } })).records).toEqual([{ k: "b", n: 20 }]);
    expect((await rows({ as_of: versions[1], offset: 1, limit: 1 })).records).toEqual([{ k: "b", n: 20 }]);
    // A time reads the newest version written at or before it; the current version as today.
    expect((await rows({ as_of: "2999-01-01T00:00:00Z" })).as_of.version).toBe(versions[2]);
    expect((await rows({ as_of: String(versions[2]) })).records).toEqual([
      { k: "a", n: 1 },
      { k: "b", n: 20 },
    ]);
    expect("as_of" in (await rows({}))).toBe(false);
  });

  it("refuses with 409 a bad value, a version not yet written, and a time before the resource", async () => {
    fails(await call("datastore_search", { resource_id: R, as_of: "last week" }), 409, { as_of: [expect.stringMatching(/version number or an ISO 8601 time/)] });
    fails(await call("datastore_search", { resource_id: R, as_of: versions[2] + 5 }), 409, { as_of: [expect.stringMatching(/after the current version/)] });
    fails(await call("datastore_search", { resource_id: R, as_of: "2000-01-01" }), 409, { as_of: [expect.stringMatching(/before the resource existed/)] });
  });

  it("reads the past of a table that only ever had inserts (no images kept yet)", async () => {
    const S = ok(await admin("datastore_create", { resource: { name: "grow" }, fields: [{ id: "n", type: "int4" }], records: [{ n: 1 }] })).resource_id;
    const first = (await info(S)).version;
    ok(await admin("datastore_upsert", { resource_id: S, method: "insert", records: [{ n: 2 }] }));
    const past = ok(await call("datastore_search", { resource_id: S, as_of: first, fields: "n" }));
    expect(past).toMatchObject({ records: [{ n: 1 }], total: 1 });
  });

  it("the dump takes as_of too", async () => {
    const res = await send(`/datastore/dump/${R}?as_of=${versions[0]}&fields=k,n`);
    expect(res.status).toBe(200);
    expect(res.text.trim().split(/\r?\n/)).toEqual(["k,n", "a,1", "b,2", "c,3"]);
  });

  it("is refused (409) by the actions that would answer it with today's rows", async () => {
    const reads: [string, Record<string, unknown>][] = [
      ["datastore_summary", {}],
      ["datastore_aggregate", { group_by: "k" }],
      ["datastore_value_counts", { field: "k" }],
      ["datastore_histogram", { field: "n" }],
    ];
    for (const [action, params] of reads) {
      fails(await call(action, { resource_id: R, as_of: versions[0], ...params }), 409, { as_of: [expect.stringMatching(/only by datastore_search and the dump/)] });
    }
  });

  it("a time in the second the resource was created, at or after its creation, reads it", async () => {
    const S = ok(await admin("datastore_create", { resource: { name: "empty" }, fields: [{ id: "n", type: "int4" }] })).resource_id;
    const created = (await info(S)).version;
    const time = ok(await call("datastore_search", { resource_id: S, as_of: created })).as_of.time;
    expect(ok(await call("datastore_search", { resource_id: S, as_of: time })).as_of).toEqual({ version: created, time });
  });

  it("_table_metadata keeps no history: as_of on it is a 409, not today's list", async () => {
    fails(await call("datastore_search", { resource_id: "_table_metadata", as_of: versions[0] }), 409, { as_of: [expect.stringMatching(/_table_metadata/)] });
  });

  it("history: false keeps only the current version readable", async () => {
    const S = ok(await admin("datastore_create", { resource: { name: "scratch" }, history: false, fields: [{ id: "n", type: "int4" }], records: [{ n: 1 }] })).resource_id;
    ok(await admin("datastore_upsert", { resource_id: S, method: "insert", records: [{ n: 2 }] }));
    const meta = await info(S);
    expect(meta.history).toMatchObject({ enabled: false, rows: 0, oldest_version: meta.version });
    fails(await call("datastore_search", { resource_id: S, as_of: meta.version - 1 }), 409, { as_of: [expect.stringMatching(/keeps no history/)] });
  });

  it("datastore_create's history is a boolean: anything else is a 409, not history turned off", async () => {
    for (const history of ["maybe", { on: true }, 2]) {
      fails(await admin("datastore_create", { resource: { name: "typo" }, history, fields: [{ id: "n", type: "int4" }] }), 409, { history: [expect.stringMatching(/true or false/)] });
    }
    const S = ok(await admin("datastore_create", { resource: { name: "words" }, history: "no", fields: [{ id: "n", type: "int4" }] })).resource_id;
    expect((await info(S)).history.enabled).toBe(false);
  });
});

describe("datastore_record_history", () => {
  it("lists a record's versions oldest first, by key or _id: when, which token, what changed", async () => {
    const byKey = ok(await call("datastore_record_history", { resource_id: R, key: { k: "b" } }), "datastore_record_history");
    expect(byKey).toEqual({
      resource_id: R,
      _id: 2,
      _ids: [2],
      versions: [
        { version: versions[0], time: expect.any(String), kind: "insert", token: "DATASTORE_ADMIN_TOKEN", record: { _id: 2, k: "b", n: 2 }, changed: { k: { old: null, new: "b" }, n: { old: null, new: 2 } } },
        { version: versions[1], time: expect.any(String), kind: "update", token: "etl", record: { _id: 2, k: "b", n: 20 }, changed: { n: { old: 2, new: 20 } } },
      ],
    });
    const deleted = ok(await call("datastore_record_history", { resource_id: R, _id: 3 }));
    expect(deleted.versions.map((v: { kind: string; record: unknown }) => [v.kind, v.record])).toEqual([
      ["insert", { _id: 3, k: "c", n: 3 }],
      ["delete", null],
    ]);
  });

  it("by key, lists every row that held the key: deleted, then inserted again under a new _id", async () => {
    ok(await admin("datastore_upsert", { resource_id: R, method: "insert", records: [{ k: "c", n: 30 }] }));
    const byKey = ok(await call("datastore_record_history", { resource_id: R, key: { k: "c" } }));
    expect(byKey._ids).toEqual([3, 4]);
    expect(byKey.versions.map((v: { kind: string; record: { _id: number; n: number } | null }) => [v.kind, v.record && [v.record._id, v.record.n]])).toEqual([
      ["insert", [3, 3]],
      ["delete", null],
      ["insert", [4, 30]],
    ]);
  });

  it("answers 404 for a record it never had, 409 without _id or the whole key", async () => {
    notFound(await call("datastore_record_history", { resource_id: R, _id: 99 }));
    fails(await call("datastore_record_history", { resource_id: R }), 409, { key: [expect.any(String)] });
    fails(await call("datastore_record_history", { resource_id: R, key: { n: 1 } }), 409, { key: [expect.stringMatching(/primary key/)] });
  });
});

describe("datastore_changes", () => {
  it("lists every change after a version, paged by its cursor, with the count of rows that differ", async () => {
    const all = ok(await call("datastore_changes", { resource_id: R, since: versions[0] }), "datastore_changes");
    expect(all).toMatchObject({ resource_id: R, since: versions[0], version: versions[2], total: 2, records_changed: 2, next_page: null });
    expect(all.changes).toEqual([
      { version: versions[1], time: expect.any(String), kind: "update", token: "etl", _id: 2, record: { _id: 2, k: "b", n: 20 }, old: { _id: 2, k: "b", n: 2 }, changed: ["n"] },
      { version: versions[2], time: expect.any(String), kind: "delete", token: "DATASTORE_ADMIN_TOKEN", _id: 3, record: null, old: { _id: 3, k: "c", n: 3 }, changed: ["k", "n"] },
    ]);
    const first = ok(await call("datastore_changes", { resource_id: R, since: versions[0], limit: 1 }));
    expect(first.changes.map((c: { _id: number }) => c._id)).toEqual([2]);
    expect(first._links.next).toContain("next_page=");
    const second = ok(await call("datastore_changes", { resource_id: R, since: versions[0], limit: 1, next_page: first.next_page }));
    expect(second.changes.map((c: { _id: number }) => c._id)).toEqual([3]);
    const counted = ok(await call("datastore_changes", { resource_id: R, since: versions[0], limit: 0 }, { method: "GET" }));
    expect(counted).toMatchObject({ changes: [], records_changed: 2, next_page: null });
    // Inserts since the resource's creation version are changes too.
    expect(ok(await call("datastore_changes", { resource_id: R, since: versions[0] - 1, limit: 0 })).total).toBeGreaterThanOrEqual(4);
  });

  it("pages by limit 1 through a batch that inserts a key and updates it again: one change, its final row", async () => {
    const since = versions[2];
    ok(await admin("datastore_upsert", { resource_id: R, records: [{ k: "a", n: 10 }, { k: "d", n: 1 }, { k: "d", n: 2 }] }));
    const seen: unknown[] = [];
    let next: string | null = null;
    do {
      const page = ok(await call("datastore_changes", { resource_id: R, since, limit: 1, ...(next ? { next_page: next } : {}) }));
      seen.push(...page.changes.map((c: { kind: string; record: { k: string; n: number } }) => [c.kind, c.record.k, c.record.n]));
      next = page.next_page;
    } while (next && seen.length < 10);
    expect(seen).toEqual([
      ["update", "a", 10],
      ["insert", "d", 2],
    ]);
    const d = ok(await call("datastore_record_history", { resource_id: R, key: { k: "d" } }));
    expect(d.versions.map((v: { kind: string; record: { n: number } }) => [v.kind, v.record.n])).toEqual([["insert", 2]]);
  });

  it("pages through inserts, updates and deletes over several versions at any limit: the one-page list, counted on the first page", async () => {
    const since = versions[0];
    ok(await admin("datastore_upsert", { resource_id: R, records: [{ k: "e", n: 5 }, { k: "a", n: 10 }, { k: "f", n: 6 }] }));
    ok(await admin("datastore_upsert", { resource_id: R, records: [{ k: "e", n: 50 }, { k: "g", n: 7 }, { k: "b", n: 200 }] }));
    ok(await admin("datastore_records_delete", { resource_id: R, filters: { k: ["f", "a"] } }));
    ok(await admin("datastore_upsert", { resource_id: R, method: "insert", records: [{ k: "h", n: 8 }] }));
    const key = (c: { version: number; _id: number; kind: string }) => `${c.version}:${c._id}:${c.kind}`;
    const all = ok(await call("datastore_changes", { resource_id: R, since, limit: 1000 }));
    expect(all.changes).toHaveLength(all.total);
    expect(all.total).toBe(11);
    expect(all.records_changed).toBe(7);
    for (const limit of [1, 2, 3, 5]) {
      const seen: string[] = [];
      let next: string | null = null;
      let pages = 0;
      do {
        const page = ok(await call("datastore_changes", { resource_id: R, since, limit, ...(next ? { next_page: next } : {}) }));
        // Counting reads every change: the first page counts, later ones say null.
        expect(page.total).toBe(pages === 0 ? all.total : null);
        expect(page.records_changed).toBe(pages === 0 ? all.records_changed : null);
        seen.push(...page.changes.map(key));
        next = page.next_page;
        pages++;
      } while (next && pages < 50);
      expect(seen).toEqual(all.changes.map(key));
    }
  });

  it("refuses with 409 a missing since and a cursor it did not give", async () => {
    fails(await call("datastore_changes", { resource_id: R }), 409, { since: [expect.any(String)] });
    fails(await call("datastore_changes", { resource_id: R, since: versions[0], next_page: "nope" }), 409, { next_page: [expect.any(String)] });
  });
});

describe("each version's field list", () => {
  /** After versions[2]: adds `note` (then a's note := "hi"), drops `n`, then adds `n` again as
   *  text (then a's n := "one"); `at` holds the version before each of those field changes. */
  const at: Record<"add" | "drop" | "retype" | "retyped", number> = { add: 0, drop: 0, retype: 0, retyped: 0 };
  beforeEach(async () => {
    at.add = (await info()).version;
    ok(await admin("datastore_create", { resource_id: R, fields: [{ id: "k", type: "text" }, { id: "n", type: "int4" }, { id: "note", type: "text" }] }));
    ok(await admin("datastore_upsert", { resource_id: R, records: [{ k: "a", note: "hi" }] }));
    at.drop = (await info()).version;
    ok(await admin("datastore_create", { resource_id: R, fields: [{ id: "k", type: "text" }, { id: "note", type: "text" }], delete_fields: true }));
    at.retype = (await info()).version;
    ok(await admin("datastore_create", { resource_id: R, fields: [{ id: "k", type: "text" }, { id: "note", type: "text" }, { id: "n", type: "text" }] }));
    at.retyped = (await info()).version;
    ok(await admin("datastore_upsert", { resource_id: R, records: [{ k: "a", n: "one" }] }));
  });
  const past = async (asOf: number, params: Record<string, unknown> = {}) => {
    const out = ok(await call("datastore_search", { resource_id: R, sort: "k", as_of: asOf, ...params }), "datastore_search");
    return { fields: out.fields.map((f: { id: string; type: string }) => `${f.id}:${f.type}`), records: out.records };
  };

  it("search as_of answers the fields and values of then: an added field absent, a dropped one with its values, the type then", async () => {
    expect(await past(at.add)).toEqual({
      fields: ["_id:int", "k:text", "n:int4"],
      records: [
        { _id: 1, k: "a", n: 1 },
        { _id: 2, k: "b", n: 20 },
      ],
    });
    expect(await past(at.drop)).toEqual({
      fields: ["_id:int", "k:text", "n:int4", "note:text"],
      records: [
        { _id: 1, k: "a", n: 1, note: "hi" },
        { _id: 2, k: "b", n: 20, note: null },
      ],
    });
    expect(await past(at.retype)).toEqual({
      fields: ["_id:int", "k:text", "note:text"],
      records: [
        { _id: 1, k: "a", note: "hi" },
        { _id: 2, k: "b", note: null },
      ],
    });
    expect((await past(at.retyped)).fields).toEqual(["_id:int", "k:text", "note:text", "n:text"]);
    expect((await past(at.retyped, { fields: "k,n" })).records).toEqual([
      { k: "a", n: null },
      { k: "b", n: null },
    ]);
    // Filters and sort take the field as it was: a number then.
    expect((await past(at.add, { filters: { n: 20 }, fields: "k" })).records).toEqual([{ k: "b" }]);
    expect((await past(at.drop, { sort: "n desc", fields: "k" })).records).toEqual([{ k: "b" }, { k: "a" }]);
    fails(await call("datastore_search", { resource_id: R, as_of: at.retype, filters: { n: 1 } }), 409, { filters: [expect.any(String)] });
    // q reads the words of then, a dropped field's too, by its name or over the row; today has them not.
    expect((await past(at.add, { q: { n: "1" }, fields: "k" })).records).toEqual([{ k: "a" }]);
    expect((await past(at.add, { q: "20", fields: "k" })).records).toEqual([{ k: "b" }]);
    expect(ok(await call("datastore_search", { resource_id: R, q: "20" })).records).toEqual([]);
    expect(ok(await call("datastore_search", { resource_id: R, fields: "k,n", sort: "k" })).records).toEqual([
      { k: "a", n: "one" },
      { k: "b", n: null },
    ]);
  });

  it("the dump as_of has the columns of then", async () => {
    const res = await send(`/datastore/dump/${R}?as_of=${at.drop}&sort=k`);
    expect(res.status).toBe(200);
    expect(res.text.trim().split(/\r?\n/)).toEqual(["_id,k,n,note", "1,a,1,hi", "2,b,20,"]);
  });

  it("datastore_record_history and datastore_changes keep the dropped field's values", async () => {
    const history = ok(await call("datastore_record_history", { resource_id: R, key: { k: "a" } }));
    expect(history.versions.map((v: { record: unknown; changed: unknown }) => [v.record, v.changed])).toEqual([
      [{ _id: 1, k: "a", n: 1 }, { k: { old: null, new: "a" }, n: { old: null, new: 1 } }],
      [{ _id: 1, k: "a", n: 1, note: "hi" }, { note: { old: null, new: "hi" } }],
      [{ _id: 1, k: "a", note: "hi", n: "one" }, { n: { old: 1, new: "one" } }],
    ]);
    const changes = ok(await call("datastore_changes", { resource_id: R, since: at.add }));
    expect(changes.changes.map((c: { version: number; old: unknown; record: unknown }) => [c.version, c.old, c.record])).toEqual([
      [at.drop, { _id: 1, k: "a", n: 1, note: null }, { _id: 1, k: "a", n: 1, note: "hi" }],
      [at.retyped + 1, { _id: 1, k: "a", note: "hi", n: null }, { _id: 1, k: "a", note: "hi", n: "one" }],
    ]);
  });
});

describe("full text as_of", () => {
  /**
   * At v0: a "apple orchard" (never changes), b "banana split" (v1: "cherry pie"), c "banana
   * banana bread" (deleted at v2), f "banana banana banana"; v1 also inserts e "banana cherry".
   */
  let T: string;
  const tv: number[] = [];
  beforeAll(async () => {
    T = ok(
      await admin("datastore_create", {
        resource: { name: "words" },
        fields: [
          { id: "k", type: "text" },
          { id: "t", type: "text" },
        ],
        primary_key: "k",
        records: [
          { k: "a", t: "apple orchard" },
          { k: "b", t: "banana split" },
          { k: "c", t: "banana banana bread" },
          { k: "f", t: "banana banana banana" },
        ],
      }),
    ).resource_id;
    tv.push((await info(T)).version);
    ok(await admin("datastore_upsert", { resource_id: T, records: [{ k: "b", t: "cherry pie" }, { k: "e", t: "banana cherry" }] }));
    tv.push((await info(T)).version);
    ok(await admin("datastore_records_delete", { resource_id: T, filters: { k: "c" } }));
    tv.push((await info(T)).version);
  });

  /** The keys a search finds (best rank first unless `sort` says otherwise), and its total. */
  const found = async (params: Record<string, unknown>) => {
    const out = ok(await call("datastore_search", { resource_id: T, fields: "k", ...params }), "datastore_search");
    return { keys: out.records.map((r: { k: string }) => r.k), total: out.total };
  };

  it("finds a changed row by its old words at the old version, not by its new ones (and the reverse today)", async () => {
    expect(await found({ q: "split", as_of: tv[0] })).toEqual({ keys: ["b"], total: 1 });
    expect(await found({ q: "pie", as_of: tv[0] })).toEqual({ keys: [], total: 0 });
    expect(await found({ q: "split" })).toEqual({ keys: [], total: 0 });
    expect(await found({ q: "pie" })).toEqual({ keys: ["b"], total: 1 });
    expect(await found({ q: "pie", as_of: tv[1] })).toEqual({ keys: ["b"], total: 1 });
  });

  it("finds a deleted row before its deletion, not a row inserted later, ranked as a current search ranks", async () => {
    // Best first: three bananas (a row unchanged since), two (deleted since), one (changed since).
    expect(await found({ q: "banana", as_of: tv[0] })).toEqual({ keys: ["f", "c", "b"], total: 3 });
    expect(await found({ q: "banana", as_of: tv[1] })).toEqual({ keys: ["f", "c", "e"], total: 3 });
    expect(await found({ q: "banana" })).toEqual({ keys: ["f", "e"], total: 2 });
    expect(await found({ q: "banana", as_of: tv[0], sort: "k desc" })).toEqual({ keys: ["f", "c", "b"], total: 3 });
    expect(await found({ q: "banana", as_of: tv[0], sort: "k" })).toEqual({ keys: ["b", "c", "f"], total: 3 });
    expect(await found({ q: "banana", as_of: tv[0], limit: 1, offset: 1 })).toEqual({ keys: ["c"], total: 3 });
    // Ranks decrease down the page, and the past's rank of a row unchanged since is today's.
    const ranked = ok(await call("datastore_search", { resource_id: T, q: "banana", as_of: tv[0], fields: "k,rank" }));
    const ranks = ranked.records.map((r: { rank: number }) => r.rank);
    expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
    const today = ok(await call("datastore_search", { resource_id: T, q: "banana", fields: "k,rank" }));
    expect(ranks[0]).toBeGreaterThan(0);
    expect(today.records[0].k).toBe("f");
    // Today's best-first ranks are kept as float4 (CKAN's rank), the past's as read.
    expect(today.records[0].rank).toBeCloseTo(ranks[0], 12);
  });

  it("takes q as a dict of field → words, with filters, negations and prefixes", async () => {
    expect(await found({ q: { t: "banana" }, as_of: tv[0] })).toEqual({ keys: ["f", "c", "b"], total: 3 });
    expect(await found({ q: { k: "banana" }, as_of: tv[0] })).toEqual({ keys: [], total: 0 });
    expect(await found({ q: { t: "split", k: "b" }, as_of: tv[0] })).toEqual({ keys: ["b"], total: 1 });
    expect(await found({ q: "banana", filters: { k: ["b", "c"] }, as_of: tv[0] })).toEqual({ keys: ["c", "b"], total: 2 });
    expect(await found({ q: "ban:*", plain: false, as_of: tv[0], sort: "k" })).toEqual({ keys: ["b", "c", "f"], total: 3 });
    expect(await found({ q: "!banana", plain: false, as_of: tv[0], sort: "k" })).toEqual({ keys: ["a"], total: 1 });
    expect(await found({ q: "!cherry", plain: false, as_of: tv[1], sort: "k" })).toEqual({ keys: ["a", "c", "f"], total: 3 });
  });

  it("reads the words in the resource's language, as its stemmer makes them", async () => {
    const F = ok(
      await admin("datastore_create", {
        resource: { name: "mots" },
        language: "french",
        fields: [
          { id: "k", type: "text" },
          { id: "t", type: "text" },
        ],
        primary_key: "k",
        records: [
          { k: "1", t: "Les chevaux galopent" },
          { k: "2", t: "Un âne" },
        ],
      }),
    ).resource_id;
    const before = (await info(F)).version;
    ok(await admin("datastore_upsert", { resource_id: F, method: "update", records: [{ k: "1", t: "Une jument" }] }));
    const past = ok(await call("datastore_search", { resource_id: F, q: "cheval", as_of: before, fields: "t" }));
    expect(past).toMatchObject({ records: [{ t: "Les chevaux galopent" }], total: 1 });
    expect(ok(await call("datastore_search", { resource_id: F, q: "cheval", fields: "t" })).total).toBe(0);
  });
});
