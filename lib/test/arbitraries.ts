// fast-check generators of malformed and hostile requests, shared by the short property test
// (lib/http/fuzz.test.ts) and the long run (`npm run fuzz`). A generated FuzzCase names the
// fuzz world's resources and tokens by markers ("$PUBLIC", "$PRIVATE"…) that lib/test/fuzz.ts
// replaces when it sends the case, so a case stays valid after the world is rebuilt.
import fc from "fast-check";

export type TokenRef = "none" | "admin" | "write" | "read" | "garbage" | "bearer-admin" | "bearer-read" | "expired" | "revoked";
type Encoding = "json" | "form" | "form-json" | "query" | "raw";

export interface FuzzCase {
  /** The action name, as it goes into the path (may be unknown or hostile); "dump" is the dump route. */
  action: string;
  method: string;
  token: TokenRef;
  encoding: Encoding;
  /** Overrides the content type the encoding implies ("" sends none). */
  contentType?: string;
  params: Record<string, unknown>;
  /** For "raw": the body as text (markers replaced) with bytes spliced in at `at`. */
  raw?: { text: string; bytes: number[]; at: number };
  /** A request no action may accept: the answer must be a 4xx. */
  mustFail?: boolean;
}

export const MARKERS = {
  public: "$PUBLIC",
  publicAlias: "$PUBLIC_ALIAS",
  private: "$PRIVATE",
  privateAlias: "$PRIVATE_ALIAS",
  /** A public resource with the most fields allowed (f0 … f999). */
  wide: "$WIDE",
  missing: "$MISSING",
} as const;

export const WIDE_FIELDS = 1000;

/** Field ids of the world's public resource (lib/test/fuzz.ts creates it). */
const PUBLIC_FIELDS = ["title", "author", "year", "rating", "in_stock", "updated", "tags", "meta", "note"];

export const READ_ACTIONS = [
  "datastore_search",
  "datastore_info",
  "datastore_value_counts",
  "datastore_histogram",
  "datastore_summary",
  "datastore_aggregate",
  "resource_show",
  "resource_search",
  "api_token_list",
];
export const WRITE_ACTIONS = ["datastore_create", "datastore_upsert", "datastore_delete", "datastore_records_delete", "api_token_create", "api_token_revoke"];
export const ALL_ACTIONS = [...READ_ACTIONS, ...WRITE_ACTIONS];

/** The parameters each action reads (and a few it does not). */
const PARAMS: Record<string, string[]> = {
  datastore_search: ["resource_id", "id", "filters", "q", "full_text", "plain", "language", "distinct", "fields", "sort", "limit", "offset", "include_total", "total_estimation_threshold", "records_format", "include_next_page", "sample", "callback"],
  datastore_info: ["resource_id", "id", "include_meta"],
  datastore_value_counts: ["resource_id", "field", "limit", "q", "plain", "filters", "language"],
  datastore_histogram: ["resource_id", "id", "field", "bins", "q", "plain", "filters", "language"],
  datastore_summary: ["resource_id", "id", "fields", "top", "bins", "q", "plain", "filters", "language"],
  datastore_aggregate: ["resource_id", "id", "group_by", "period", "bin", "metric", "field", "limit", "q", "plain", "filters", "language"],
  resource_show: ["id", "resource_id"],
  resource_search: ["query", "order_by", "offset", "limit"],
  api_token_list: ["user_id"],
  datastore_create: ["resource_id", "id", "resource", "force", "fields", "records", "primary_key", "indexes", "aliases", "delete_fields", "triggers", "calculate_record_count", "language"],
  datastore_upsert: ["resource_id", "id", "records", "method", "force", "dry_run"],
  datastore_delete: ["resource_id", "id", "filters", "force"],
  datastore_records_delete: ["resource_id", "id", "filters", "force"],
  api_token_create: ["name", "scope", "expires_in", "unit"],
  api_token_revoke: ["jti", "id", "token"],
  dump: ["format", "bom", "q", "filters", "fields", "sort", "offset", "limit", "distinct", "plain", "language"],
};

// ------------------------------------------------------------------------------- values

const SQL_FRAGMENTS = [
  "'; DROP TABLE datastore_resources; --",
  '" OR 1=1 --',
  "x' OR '1'='1",
  "1; SELECT * FROM api_tokens",
  "') UNION SELECT token_hash, 1, 1 FROM api_tokens --",
  "title\" desc, (SELECT 1) --",
  "`",
  "\\",
  ")",
  "(",
  "%",
  "_",
  "*",
  "NULL",
  "rowid",
  "c1",
  "_id",
  "_full_text",
  "sqlite_master",
  "ds_0000 WHERE 1",
  "title COLLATE nocase",
  "title; PRAGMA writable_schema=1",
  "x:* & !y | (z",
  "NEAR(a b)",
  '"a" OR "b"',
  "a <-> b",
  "{1,2}",
  "$$x",
];

const ODD_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff lone",
  "💥",
  "e\u0301",
  "हिंदी",
  "x\u0305y",
  "a\u093cb:*",
  "\u202eevil",
  "\ufeff",
  "\r\n",
  "../../etc/passwd",
  "%00",
  "%zz",
  "NaN",
  "Infinity",
  "-1",
  "1e309",
  "0x10",
  "true",
  "null",
  "[]",
  "{}",
  '{"title": "x"}',
  "{",
  "[",
  "__proto__",
  "constructor",
  "hasOwnProperty",
  "toString",
  "valueOf",
  "_constructor",
];

/** Names every plain object inherits: a lookup table keyed by user input must not find them. */
const PROTO_NAMES = ["constructor", "__proto__", "toString", "hasOwnProperty", "_constructor", "valueOf[]"];

const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SQL_FRAGMENTS, ...ODD_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 24 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 24 }) },
  { weight: 1, arbitrary: fc.constantFrom(...PUBLIC_FIELDS, ...Object.values(MARKERS)) },
  { weight: 1, arbitrary: fc.nat({ max: 200_000 }).map((n) => "x".repeat(n)) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...SQL_FRAGMENTS), fc.constantFrom(...PUBLIC_FIELDS)).map(([s, f]) => `${f}${s}`) },
);

const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, -0, -1, 1, 1.5, -1.5, 1e308, -1e308, 5e-324, 2 ** 31, 2 ** 32, 2 ** 53, 2 ** 53 + 2, -(2 ** 63), 2 ** 64, 99999999999999999999),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** A JSON value nested `depth` levels deep (arrays or objects). */
const deepJson = (maxDepth: number): fc.Arbitrary<unknown> =>
  fc.tuple(fc.integer({ min: 1, max: maxDepth }), fc.boolean()).map(([depth, objects]) => {
    let v: unknown = 1;
    for (let i = 0; i < depth; i++) v = objects ? { k: v } : [v];
    return v;
  });

const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    { weight: 4, arbitrary: hostileString },
    { weight: 3, arbitrary: hostileNumber },
    { weight: 1, arbitrary: fc.constantFrom(true, false, null) },
    // JSON objects that break String(): their own toString / valueOf are not functions.
    { weight: 1, arbitrary: fc.constantFrom({ toString: 1 }, { valueOf: "x", toString: null }, [{ toString: [] }], { title: { toString: 1 } }) },
    { weight: 1, arbitrary: fc.array(tie("value"), { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.dictionary(hostileString, tie("value"), { maxKeys: 3 }) },
    { weight: 1, arbitrary: deepJson(130) },
    { weight: 1, arbitrary: fc.nat({ max: 20_000 }).map((n) => Array.from({ length: n }, (_, i) => i)) },
  ),
})).value;

/** A field reference: real ids, system columns, hostile names. */
const fieldRef: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...PUBLIC_FIELDS, "_id", "rank", "rank title", "_full_text", "oid", "ctid") },
  { weight: 1, arbitrary: fc.nat(WIDE_FIELDS - 1).map((i) => `f${i}`) },
  { weight: 2, arbitrary: hostileString },
  { weight: 1, arbitrary: fc.constantFrom(...PUBLIC_FIELDS).map((f) => `"${f}"`) },
);

/** Short values only, for the long lists below (a long list of long strings is gigabytes). */
const smallValue: fc.Arbitrary<unknown> = fc.oneof(hostileNumber, fc.string({ maxLength: 8 }), fc.constantFrom(...SQL_FRAGMENTS));
const smallFieldRef: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...PUBLIC_FIELDS, "_id", "rank", "nope"),
  fc.nat(WIDE_FIELDS - 1).map((i) => `f${i}`),
);

/** The same item repeated past SQLite's limits (2000 columns, 32766 bound values). */
const longList = <T>(item: fc.Arbitrary<T>): fc.Arbitrary<T[]> =>
  fc.tuple(item, fc.integer({ min: 900, max: 40_000 })).map(([x, n]) => Array.from({ length: n }, () => x));

/** An object with keys f0 … fN: a condition per field of the wide resource, or more. */
const manyKeys = <T>(value: fc.Arbitrary<T>): fc.Arbitrary<Record<string, T>> =>
  fc.tuple(fc.integer({ min: 100, max: 1200 }), value).map(([n, v]) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, v])));

const sortValue: fc.Arbitrary<unknown> = fc.oneof(
  longList(fc.constantFrom("title", "f1 desc", "_id", "nope")),
  longList(fc.constantFrom("title desc", "f2")).map((l) => l.join(",")),
  fc
    .array(
      fc.tuple(fieldRef, fc.constantFrom("", " asc", " desc", " DESC NULLS FIRST", " nulls last", " sideways", "; DROP TABLE x", " asc asc", ' collate "C"')),
      { minLength: 1, maxLength: 3 },
    )
    .map((clauses) => clauses.map(([f, d]) => f + d).join(", ")),
  fc.array(fieldRef, { maxLength: 3 }),
  hostileValue,
);

const qValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  manyKeys(fc.constantFrom("a", "word", "1")),
  fc.dictionary(fieldRef, hostileString, { maxKeys: 3 }),
  fc.array(fc.constantFrom("tolstoy", "war", "&", "|", "!", "(", ")", ":*", " ", "<->", "the", "'", '"', "\\"), { maxLength: 10 }).map((p) => p.join(" ")),
  hostileValue,
);

const filtersValue: fc.Arbitrary<unknown> = fc.oneof(
  manyKeys(smallValue),
  fc.tuple(smallFieldRef, longList(smallValue)).map(([f, values]) => ({ [f]: values })),
  fc.dictionary(fieldRef, fc.oneof(hostileValue, fc.array(hostileValue, { maxLength: 4 })), { maxKeys: 3 }),
  fc.dictionary(fieldRef, fc.dictionary(fc.constantFrom("gt", "lt", "gte", "lte", "eq", "$or", "like"), hostileValue, { maxKeys: 2 }), { maxKeys: 2 }),
  hostileValue,
);

const resourceRef: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...Object.values(MARKERS), "_table_metadata") },
  { weight: 1, arbitrary: hostileValue },
);

const recordArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: fc.dictionary(fieldRef, hostileValue, { maxKeys: 5 }) },
  { weight: 1, arbitrary: manyKeys(smallValue) },
  { weight: 1, arbitrary: hostileValue },
);

const fieldDecl: fc.Arbitrary<unknown> = fc.oneof(
  fc.record(
    {
      id: fc.oneof(fieldRef, hostileValue),
      type: fc.oneof(fc.constantFrom("text", "int", "numeric", "bool", "timestamp", "json", "text[]", "int[", "INVALID", "uuid", "varchar(20)", "serial", ...PROTO_NAMES), hostileValue),
      info: hostileValue,
    },
    { requiredKeys: ["id"] },
  ),
  hostileValue,
);

/** datastore_aggregate's keys that it can group by: one or two fields of the public or the wide
 *  resource (a date by period, a number by bin), as a list or a comma string. */
const validGroupBy: fc.Arbitrary<unknown> = fc.constantFrom("author", "year", "updated", "in_stock", "tags", ["updated", "year"], ["author", "rating"], "author,year", "f0", ["f0", "f1"]);

const groupByValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: validGroupBy },
  { weight: 2, arbitrary: fieldRef },
  { weight: 1, arbitrary: fc.array(fieldRef, { maxLength: 3 }) },
  { weight: 1, arbitrary: longList(smallFieldRef) },
  { weight: 1, arbitrary: hostileValue },
);

/** Parameters an action cannot do without beyond the resource, filled in (when a case aims at a
 *  real resource and did not draw them) so that most of its cases reach the engine. */
const NEEDED: Record<string, [string, fc.Arbitrary<unknown>]> = {
  datastore_aggregate: ["group_by", validGroupBy],
};

/** A value for one named parameter, tilted towards what that parameter expects. */
function paramValue(key: string): fc.Arbitrary<unknown> {
  const specific: Record<string, fc.Arbitrary<unknown>> = {
    resource_id: resourceRef,
    id: resourceRef,
    filters: filtersValue,
    q: qValue,
    full_text: qValue,
    sort: sortValue,
    fields: fc.oneof(fc.array(fieldRef, { maxLength: 4 }), fieldRef, fc.array(fieldDecl, { maxLength: 3 }), longList(smallFieldRef)),
    field: fieldRef,
    records: fc.oneof(fc.array(recordArb, { maxLength: 6 }), hostileValue),
    method: fc.oneof(fc.constantFrom("insert", "update", "upsert", "INSERT", "delete"), hostileValue),
    primary_key: fc.oneof(fc.array(fieldRef, { maxLength: 3 }), fieldRef, hostileValue, longList(smallFieldRef)),
    indexes: fc.oneof(fc.array(fc.oneof(fieldRef, fc.array(fieldRef, { maxLength: 2 })), { maxLength: 3 }), hostileValue, longList(smallFieldRef).map((l) => [l])),
    aliases: fc.oneof(fc.array(hostileString, { maxLength: 3 }), hostileValue),
    resource: fc.oneof(fc.record({ name: hostileValue, description: hostileValue, private: hostileValue }, { requiredKeys: [] }), hostileValue),
    limit: fc.oneof(hostileNumber, hostileValue),
    sample: fc.oneof(fc.integer({ min: 1, max: 40_000 }), hostileNumber, hostileValue),
    bins: fc.oneof(hostileNumber, hostileValue),
    top: fc.oneof(fc.integer({ min: 0, max: 101 }), hostileNumber, hostileValue),
    group_by: groupByValue,
    period: fc.oneof(fc.constantFrom("day", "week", "month", "quarter", "year", "MONTH", "fortnight", ...PROTO_NAMES), hostileValue),
    bin: fc.oneof(fc.constantFrom(1, 10, 0.5, 0.1, 1000, "10", "1e2"), hostileNumber, hostileValue),
    metric: fc.oneof(fc.constantFrom("count", "sum", "avg", "min", "max", "median", "COUNT", ...PROTO_NAMES), hostileValue),
    offset: fc.oneof(hostileNumber, hostileValue),
    records_format: fc.oneof(fc.constantFrom("objects", "lists", "csv", "tsv", "xml", "OBJECTS", ...PROTO_NAMES), hostileValue),
    format: fc.oneof(fc.constantFrom("csv", "tsv", "json", "xml", "xlsx", "CSV", ...PROTO_NAMES), hostileValue),
    scope: fc.oneof(fc.constantFrom("read", "write", "admin", "root", "sysadmin", ...PROTO_NAMES), hostileValue),
    language: fc.oneof(fc.constantFrom("english", "simple", "French", "klingon", "greek", ...PROTO_NAMES), hostileValue),
    order_by: fc.oneof(fc.constantFrom("name", "created", "row_count", ...PROTO_NAMES), hostileValue),
    query: fc.oneof(fc.constantFrom("name:fuzz", "constructor:x", "__proto__:x", "id:", "name"), hostileValue),
  };
  return specific[key] ?? hostileValue;
}

/** Parameters for an action: a few of its own (so that most cases get past all but one check
 *  and reach the engine), sometimes with unknown and hostile keys. */
function paramsFor(action: string): fc.Arbitrary<Record<string, unknown>> {
  const keys = PARAMS[action] ?? PARAMS.datastore_search;
  return fc
    .tuple(
      fc.shuffledSubarray(keys, { maxLength: Math.min(4, keys.length) }).chain((chosen) => fc.record(Object.fromEntries(chosen.map((k) => [k, paramValue(k)])))),
      fc.dictionary(fc.oneof(hostileString, fc.constantFrom(...PROTO_NAMES, "__extras", "_")), fc.oneof(hostileValue, fc.constant(["a", "b"])), { maxKeys: 2 }),
      fc.nat(3),
      fc.nat(9),
      NEEDED[action]?.[1] ?? fc.constant(undefined),
    )
    .map(([known, extra, extraOdds, targetOdds, needed]) => {
      const withExtra = extraOdds === 0;
      const target = targetOdds < 6 ? MARKERS.public : targetOdds < 8 ? MARKERS.wide : undefined;
      const out: Record<string, unknown> = { ...known };
      // Most cases aim at a real resource, so they get past "Missing value" to the interesting checks.
      if (target && keys.includes("resource_id") && !("resource_id" in out) && !("id" in out)) out.resource_id = target;
      const need = NEEDED[action]?.[0];
      if (target && need && !(need in out)) out[need] = needed;
      if (withExtra) for (const [k, v] of Object.entries(extra)) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
      return out;
    });
}

// ------------------------------------------------------------------------------ requests

const tokenRef = fc.constantFrom<TokenRef>("none", "none", "admin", "admin", "write", "read", "garbage", "bearer-admin", "bearer-read", "expired", "revoked");

const ODD_CONTENT_TYPES = [
  "",
  "text/plain",
  "application/json; charset=latin1",
  "application/JSON",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/xml",
  "application/octet-stream",
  "*/*",
  "application/json, text/html",
  "garbage;;;=",
];

const METHODS = ["POST", "POST", "POST", "POST", "POST", "POST", "GET", "GET", "GET", "GET", "PUT", "PATCH", "DELETE"];

/** A well-formed transport carrying hostile parameters, for any action. */
export const paramCase: fc.Arbitrary<FuzzCase> = fc
  .tuple(fc.constantFrom(...ALL_ACTIONS), tokenRef, fc.constantFrom(...METHODS), fc.constantFrom<Encoding>("json", "json", "json", "form", "form-json", "query"))
  .chain(([action, token, method, encoding]) =>
    paramsFor(action).map((params): FuzzCase => {
      // A GET of a write action is a plain 400 (transportCase covers it): send those as POST.
      const get = (method === "GET" || encoding === "query") && READ_ACTIONS.includes(action);
      return { action, token, method: get ? "GET" : method === "GET" ? "POST" : method, encoding: get ? "query" : encoding === "query" ? "json" : encoding, params };
    }),
  );

/** Hostile parameters for the dump route (GET only). */
export const dumpCase: fc.Arbitrary<FuzzCase> = fc
  .tuple(tokenRef, resourceRef, paramsFor("dump"))
  .map(([token, id, params]) => ({ action: "dump", token, method: "GET", encoding: "query" as Encoding, params: { ...params, $id: id } }));

/** Broken transport: bodies no action may accept, and wrong methods or action names. */
export const transportCase: fc.Arbitrary<FuzzCase> = fc.oneof(
  // Invalid UTF-8 spliced into an otherwise valid JSON body.
  fc
    .tuple(fc.constantFrom(...ALL_ACTIONS), tokenRef, fc.array(fc.constantFrom(0x80, 0xbf, 0xc0, 0xc1, 0xf5, 0xff, 0xed, 0xa0, 0xfe), { minLength: 1, maxLength: 4 }), fc.nat())
    .map(([action, token, bytes, at]): FuzzCase => {
      const text = JSON.stringify({ resource_id: MARKERS.public, q: "war", records: [{ title: "t" }] });
      return { action, token, method: "POST", encoding: "raw", params: {}, raw: { text, bytes, at: at % (text.length + 1) }, mustFail: true };
    }),
  // JSON that is truncated, not an object, or nested too deep.
  fc
    .tuple(
      fc.constantFrom(...ALL_ACTIONS),
      tokenRef,
      fc.oneof(
        fc.constantFrom("{", '{"resource_id": ', "[1, 2", '"just a string"', "42", "null", "true", "[]", '[{"resource_id": "x"}]', "{'single': 'quotes'}", '{"a": 1,}', "NaN", "{\"a\": 1} trailing", "\u0000{}", "{}}"),
        fc.integer({ min: 101, max: 100_000 }).map((n) => `{"resource_id": "$PUBLIC", "filters": ${"[".repeat(n)}${"]".repeat(n)}}`),
        fc.integer({ min: 101, max: 100_000 }).map((n) => `${"[".repeat(n)}${"]".repeat(n)}`),
        fc.integer({ min: 101, max: 5_000 }).map((n) => `{"resource_id": "$PUBLIC", "records": [{"meta": ${'{"a":'.repeat(n)}1${"}".repeat(n)}}]}`),
      ),
    )
    .map(([action, token, text]): FuzzCase => ({ action, token, method: "POST", encoding: "raw", params: {}, raw: { text, bytes: [], at: 0 }, mustFail: true })),
  // Multipart is refused whatever it holds.
  fc.tuple(fc.constantFrom(...ALL_ACTIONS), tokenRef).map(([action, token]): FuzzCase => ({
    action,
    token,
    method: "POST",
    encoding: "raw",
    contentType: "multipart/form-data; boundary=x",
    params: {},
    raw: { text: '--x\r\nContent-Disposition: form-data; name="resource_id"\r\n\r\n$PUBLIC\r\n--x--\r\n', bytes: [], at: 0 },
    mustFail: true,
  })),
  // A GET of a write action, any other method, an unknown or hostile action name.
  fc.tuple(fc.constantFrom(...WRITE_ACTIONS), tokenRef).map(([action, token]): FuzzCase => ({ action, token, method: "GET", encoding: "query", params: { resource_id: MARKERS.public }, mustFail: true })),
  fc
    .tuple(
      fc.oneof(fc.constantFrom("datastore_search_sql", "help_show", "package_show", "__proto__", "constructor", "toString", "hasOwnProperty", "DATASTORE_SEARCH", "datastore_search ", "datastore_search%00"), hostileString),
      tokenRef,
      fc.constantFrom("GET", "POST"),
    )
    .filter(([name]) => !ALL_ACTIONS.includes(name))
    .map(([action, token, method]): FuzzCase => ({ action, token, method, encoding: method === "GET" ? "query" : "json", params: { resource_id: MARKERS.public }, mustFail: true })),
  // Any parameters under an odd content type.
  fc
    .tuple(fc.constantFrom(...ALL_ACTIONS), tokenRef, fc.constantFrom(...ODD_CONTENT_TYPES))
    .chain(([action, token, contentType]) =>
      paramsFor(action).map((params): FuzzCase => ({ action, token, method: "POST", encoding: "json", contentType, params })),
    ),
);

/** Any case: mostly hostile parameters, some broken transport, some dumps. */
export const fuzzCase: fc.Arbitrary<FuzzCase> = fc.oneof(
  { weight: 6, arbitrary: paramCase },
  { weight: 3, arbitrary: transportCase },
  { weight: 1, arbitrary: dumpCase },
);
