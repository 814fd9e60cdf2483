// Issue 29's goal for tokens limited to resources: every action of the API, tried with such a
// token against every other resource (public and private, by id and by alias), answers 403 or
// 404 and changes nothing; a 403 names no id. The calls are made from the action registry:
// an action with no line in PARAMS fails the first test, so a new action is covered by itself.
import { beforeAll, describe, expect, it } from "vitest";
import { ACTIONS } from "../datastore/actions";
import { call, freshDb } from "../test/api";
import { admin, ok } from "../test/contract";

/** What an action is tried on: another resource, named by `ref` (its id or an alias), and a
 *  saved view of it; `token`: the id of another token (for api_token_revoke). */
interface Target {
  ref: string;
  id: string;
  view: string;
  token: string;
}

interface Trial {
  params: (t: Target) => Record<string, unknown>;
  /** An answer about many resources (or none): 200 allowed, as long as it names no other. */
  lists?: true;
}

/** Plausible parameters for every action: each would succeed with an unlimited admin token. */
const PARAMS: Record<string, Trial> = {
  datastore_search: { params: (t) => ({ resource_id: t.ref, q: "secretword" }) },
  datastore_info: { params: (t) => ({ resource_id: t.ref }) },
  datastore_value_counts: { params: (t) => ({ resource_id: t.ref, field: "word" }) },
  datastore_histogram: { params: (t) => ({ resource_id: t.ref, field: "n" }) },
  datastore_aggregate: { params: (t) => ({ resource_id: t.ref, group_by: "word" }) },
  datastore_summary: { params: (t) => ({ resource_id: t.ref }) },
  datastore_record_history: { params: (t) => ({ resource_id: t.ref, _id: 1 }) },
  datastore_changes: { params: (t) => ({ resource_id: t.ref, since: 0 }) },
  datastore_search_all: { params: () => ({ q: "secretword" }), lists: true },
  resource_show: { params: (t) => ({ id: t.ref }) },
  resource_search: { params: (t) => ({ query: `id:${t.id}` }), lists: true },
  datastore_create: { params: (t) => ({ resource_id: t.ref, fields: [{ id: "extra", type: "text" }], records: [{ n: 99, word: "x" }] }) },
  datastore_upsert: { params: (t) => ({ resource_id: t.ref, method: "insert", records: [{ n: 99, word: "x" }] }) },
  datastore_delete: { params: (t) => ({ resource_id: t.ref }) },
  datastore_records_delete: { params: (t) => ({ resource_id: t.ref, filters: { n: 1 } }) },
  resource_patch: { params: (t) => ({ id: t.ref, name: "taken over", private: false }) },
  resource_delete: { params: (t) => ({ id: t.ref }) },
  api_token_create: { params: (t) => ({ name: "wider", scope: "write", resources: [t.ref] }) },
  api_token_list: { params: () => ({}) },
  api_token_revoke: { params: (t) => ({ jti: t.token }) },
  api_token_patch: { params: (t) => ({ id: t.token, rate_per_minute: 0 }) },
  datastore_whoami: { params: () => ({}), lists: true },
  datastore_audit_list: { params: (t) => ({ resource_id: t.ref }) },
  datastore_view_create: { params: (t) => ({ resource_id: t.ref, name: "mine now" }) },
  datastore_view_show: { params: (t) => ({ id: t.view }) },
  datastore_view_list: { params: (t) => ({ resource_id: t.ref }) },
  datastore_view_patch: { params: (t) => ({ id: t.view, name: "renamed" }) },
  datastore_view_delete: { params: (t) => ({ id: t.view }) },
};

const ROWS = [1, 2, 3].map((n) => ({ n, word: `secretword ${n}` }));

interface Other {
  id: string;
  alias: string;
  name: string;
  view: string;
}

let own: string;
let others: Other[];
let tokens: { scope: string; secret: string }[];
let otherToken: string;

async function table(name: string, isPrivate: boolean): Promise<Other> {
  const id = ok(
    await admin("datastore_create", {
      resource: { name, private: isPrivate },
      fields: [
        { id: "n", type: "int" },
        { id: "word", type: "text" },
      ],
      records: ROWS,
      aliases: [`${name}_alias`],
    }),
  ).resource_id;
  const view = ok(await admin("datastore_view_create", { resource_id: id, name: `${name} view`, q: "secretword", private: false })).id;
  return { id, alias: `${name}_alias`, name, view };
}

/** Everything an action could change, read as admin (times of last use left out). */
async function snapshot(): Promise<unknown> {
  const resources = ok(await admin("resource_search", { limit: 1000 })).results.map((r: Record<string, unknown>) => [r.id, r.name, r.private, r.row_count, r.last_modified, r.datastore_active, r.aliases]);
  const rows = [];
  for (const [id] of resources) rows.push(ok(await admin("datastore_search", { resource_id: id, limit: 1000 })).records);
  const views = ok(await admin("datastore_view_list", {})).map((v: Record<string, unknown>) => [v.id, v.name, v.modified]);
  const toks = ok(await admin("api_token_list")).map((t: Record<string, unknown>) => [t.id, t.name, t.scope, t.resources, t.actions]);
  const audit = ok(await admin("datastore_audit_list", { limit: 1 })).records.map((e: { id: number }) => e.id);
  return { resources, rows, views, toks, audit };
}

beforeAll(async () => {
  freshDb();
  own = ok(await admin("datastore_create", { resource: { name: "own", private: true }, fields: [{ id: "n", type: "int" }], records: [{ n: 1 }] })).resource_id;
  others = [await table("pubtable", false), await table("privtable", true)];
  tokens = [];
  for (const scope of ["write", "read"]) {
    tokens.push({ scope, secret: ok(await admin("api_token_create", { name: `limited ${scope}`, scope, resources: [own] })).token });
  }
  otherToken = ok(await admin("api_token_create", { name: "bystander" })).id;
});

describe("a token limited to resources, against every other resource", () => {
  it("has plausible parameters for every action of the registry", () => {
    expect(Object.keys(ACTIONS).filter((name) => !PARAMS[name])).toEqual([]);
  });

  it("works on its own resource (so a refusal below is the limit's, not a broken token's)", async () => {
    const [write, read] = tokens;
    ok(await call("datastore_upsert", { resource_id: own, method: "insert", records: [{ n: 2 }] }, { token: write.secret }));
    expect(ok(await call("datastore_search", { resource_id: own }, { token: read.secret })).total).toBe(2);
  });

  it.each(Object.keys(PARAMS).filter((name) => ACTIONS[name]))("%s: 403 or 404, naming no id, and nothing changed", async (name) => {
    const trial = PARAMS[name];
    const before = await snapshot();
    for (const { scope, secret } of tokens) {
      for (const other of others) {
        for (const ref of [other.id, other.alias]) {
          const res = await call(name, trial.params({ ref, id: other.id, view: other.view, token: otherToken }), { token: secret });
          const text = JSON.stringify(res.body);
          const where = `${name} as ${scope} on ${other.name} by ${ref === other.id ? "id" : "alias"}: ${res.status} ${text.slice(0, 300)}`;
          if (trial.lists && res.status === 200) {
            for (const secretThing of [other.id, other.alias, other.name, ROWS[0].word]) expect(text, where).not.toContain(secretThing);
            continue;
          }
          expect([403, 404], where).toContain(res.status);
          // A 403 names no id; a 404 echoes at most the name the caller gave.
          if (res.status === 403 || ref !== other.id) expect(text, where).not.toContain(other.id);
          if (res.status === 403) expect(text, where).not.toContain(other.alias);
        }
      }
    }
    expect(await snapshot()).toEqual(before);
  });
});
