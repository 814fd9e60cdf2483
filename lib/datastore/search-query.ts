// Turns CKAN search parameters into an engine SearchQuery, in two stages that mirror CKAN's
// order of checks: parseSearchParams validates what needs no table (409 before 404/403);
// bindSearch checks names against the resource's fields (409 after the table is found).
// Shared by datastore_search, the dump endpoint and datastore_value_counts.
import { config } from "../config";
import type { Filter, FtsCondition, Resource, SearchQuery, SortClause } from "./engine";
import { DatastoreError, ErrorBag } from "./errors";
import { filterValueCount, parseFilters } from "./filters";
import { FtsSyntaxError, parsePlain, parseTsQuery } from "./full-text";
import { languageOf, searchLanguage } from "./text-language";
import { asBool, asInt, asList, isPlainObject, isUnset, parseJsonString, str, type Params } from "./validate";

export interface SearchParams {
  /** As sent (parsed from JSON text); bindSearch parses the tree against the fields. */
  filters?: unknown;
  q?: string | Record<string, unknown>;
  fullText?: string;
  plain: boolean;
  language?: string;
  distinct: boolean;
  fields?: string[];
  sort?: string[];
  limit: number;
  offset: number;
  includeTotal: boolean;
  /** `total_estimation_threshold`: absent (null) means an exact total, as in CKAN. */
  totalEstimationThreshold?: number;
  includeNextPage: boolean;
}

/** Entries in `fields` or `sort`: SQLite takes at most 2000 result columns or ORDER BY terms. */
const MAX_COLUMNS = 1500;

export function parseSearchParams(params: Params, bag: ErrorBag, opts: { unlimited?: boolean } = {}): SearchParams {
  const out: SearchParams = {
    plain: asBool(params.plain, true),
    distinct: asBool(params.distinct, false),
    includeTotal: asBool(params.include_total, true),
    includeNextPage: asBool(params.include_next_page, false),
    limit: 0,
    offset: asInt(params.offset, "offset", bag, 0, `invalid value "${str(params.offset)}"`),
  };
  const max = opts.unlimited ? undefined : config.limitMax;
  const limit = asInt(params.limit, "limit", bag, config.limitDefault, "Must be a natural number", max);
  out.limit = max === undefined ? limit : Math.min(limit, max);

  if (!isUnset(params.filters)) {
    // CKAN's json_validator: a dict or list as it is, anything else through a JSON parser.
    const raw = params.filters;
    const f = typeof raw === "string" || (typeof raw === "object" && raw !== null) ? parseJsonString(raw) : undefined;
    if (f === undefined) bag.add("filters", "Cannot parse JSON");
    else out.filters = f;
  }

  if (!isUnset(params.q)) {
    let q = params.q;
    if (typeof q === "string" && q.trim().startsWith("{")) {
      const parsed = parseJsonString(q);
      if (isPlainObject(parsed)) q = parsed;
    }
    if (typeof q === "string" || isPlainObject(q)) {
      const text = typeof q === "string" ? q : Object.values(q).map(str).join(" ");
      if (text.length > config.maxQLength) bag.add("q", `must be at most ${config.maxQLength} characters`);
      else out.q = q;
    } else bag.add("q", `invalid value ${JSON.stringify(q)}`);
  }
  if (!isUnset(params.full_text)) {
    if (typeof params.full_text !== "string") bag.add("full_text", `invalid value ${JSON.stringify(params.full_text)}`);
    else if (params.full_text.length > config.maxQLength) bag.add("full_text", `must be at most ${config.maxQLength} characters`);
    else out.fullText = params.full_text;
  }

  if (!isUnset(params.language)) {
    // CKAN answers 409 for a configuration PostgreSQL does not have; ours: one we do not stem in.
    if (typeof params.language === "string" && languageOf(params.language)) out.language = params.language;
    else bag.add("language", `text search configuration "${str(params.language)}" does not exist`);
  }

  if (!isUnset(params.fields)) {
    const list = asList(params.fields);
    if (list === null) bag.add("fields", `invalid value ${JSON.stringify(params.fields)}`);
    else if (list.some((x) => typeof x !== "string")) bag.add("__junk", `invalid value ${JSON.stringify(params.fields)}`);
    else if (list.length > MAX_COLUMNS) bag.add("fields", `at most ${MAX_COLUMNS} fields may be listed`);
    // An empty list means all fields, as in CKAN.
    else if (list.length) out.fields = list as string[];
  }

  if (!isUnset(params.sort)) {
    const list = typeof params.sort === "string" ? splitSort(params.sort) : Array.isArray(params.sort) ? params.sort : null;
    if (list === null || list.some((x) => typeof x !== "string")) bag.add("sort", `invalid value ${JSON.stringify(params.sort)}`);
    else if (list.length > MAX_COLUMNS) bag.add("sort", `at most ${MAX_COLUMNS} sort clauses are allowed`);
    else out.sort = (list as string[]).map((s) => s.trim()).filter((s) => s !== "");
  }

  if (!isUnset(params.total_estimation_threshold)) {
    out.totalEstimationThreshold = asInt(params.total_estimation_threshold, "total_estimation_threshold", bag, 0, "Must be a natural number");
  }
  return out;
}

/** Splits a sort string on commas outside double quotes. */
function splitSort(s: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  for (const ch of s) {
    if (ch === '"') quoted = !quoted;
    if (ch === "," && !quoted) {
      out.push(cur);
      cur = "";
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

const SORT_RE = /^(.*?)(?:\s+(asc|desc))?(?:\s+nulls\s+(first|last))?$/i;

function parseSortClause(clause: string): { field: string; desc: boolean; nullsFirst: boolean } | null {
  const m = SORT_RE.exec(clause.trim());
  if (!m) return null;
  let field = m[1].trim();
  if (field.startsWith('"')) {
    if (!field.endsWith('"') || field.length < 2) return null;
    field = field.slice(1, -1).replace(/""/g, '"');
  }
  const desc = (m[2] ?? "asc").toLowerCase() === "desc";
  // PostgreSQL's default null placement: last for asc, first for desc.
  const nullsFirst = m[3] ? m[3].toLowerCase() === "first" : desc;
  return field ? { field, desc, nullsFirst } : null;
}

function parseFts(text: string, plain: boolean, language: string): FtsCondition["tree"] {
  if (plain) return parsePlain(text, language);
  try {
    return parseTsQuery(text, language);
  } catch (e) {
    if (e instanceof FtsSyntaxError) throw DatastoreError.field("query", "Invalid query");
    throw e;
  }
}

export interface BoundSearch {
  query: SearchQuery;
  /** With include_next_page in `_id` order: the operator of `next_page`'s `_id` filter. */
  nextPage?: "gt" | "lt";
  /** Output columns with their reported types. */
  columns: { id: string; type: string; info?: Record<string, unknown> }[];
}

/** Checks the parameters against the resource's fields and builds the engine query. */
export function bindSearch(r: Resource, p: SearchParams): BoundSearch {
  const fieldIds = new Set(r.fields.map((f) => f.id));
  const bag = new ErrorBag();

  // CKAN parses filters first: their errors win over those of q, fields and sort.
  const filters = bindFilters(r, p.filters);

  const fts: FtsCondition[] = [];
  const rankTypes: string[] = [];
  const language = searchLanguage(p.language, r);
  try {
    if (typeof p.q === "string" && p.q !== "") {
      fts.push({ field: null, tree: parseFts(p.q, p.plain, language), rank: "rank", language, ...(p.plain ? { text: p.q } : {}) });
    } else if (p.q && typeof p.q === "object") {
      for (const [key, value] of Object.entries(p.q)) {
        if (!fieldIds.has(key) || typeof value !== "string") {
          bag.add("q", `invalid value ${JSON.stringify({ [key]: value })}`);
          continue;
        }
        fts.push({ field: key, tree: parseFts(value, p.plain, language), rank: `rank ${key}`, language, ...(p.plain ? { text: value } : {}) });
      }
    }
    if (p.fullText && !fts.some((c) => c.rank === "rank")) {
      fts.push({ field: null, tree: parseFts(p.fullText, p.plain, language), rank: "rank", language, ...(p.plain ? { text: p.fullText } : {}) });
    }
  } catch (e) {
    bag.throwIfAny();
    throw e;
  }
  for (const c of fts) rankTypes.push(c.rank);
  const ranks = new Set(rankTypes);

  let columns: string[];
  if (p.fields) {
    columns = [];
    for (const f of p.fields) {
      if (f === "_id" || fieldIds.has(f) || ranks.has(f)) columns.push(f);
      else bag.add("fields", `invalid value "${f}"`);
    }
  } else {
    columns = ["_id", ...r.fields.map((f) => f.id), ...rankTypes];
  }

  const sort: SortClause[] = [];
  for (const clause of p.sort ?? []) {
    const s = parseSortClause(clause);
    if (!s || !(s.field === "_id" || fieldIds.has(s.field) || ranks.has(s.field))) {
      bag.add("sort", `invalid value "${clause}"`);
      continue;
    }
    sort.push(s);
  }
  bag.throwIfAny();

  if (!p.sort?.length) {
    // CKAN's defaults: best rank first when searching, otherwise insertion order.
    if (fts.length) sort.push({ field: fts[0].rank, desc: true, nullsFirst: false });
    else if (!p.distinct) sort.push({ field: "_id", desc: false, nullsFirst: false });
  }

  // Keyset paging (CKAN 2.12): only a page in plain `_id` order has a next page to point at.
  const byIdOnly = sort.length === 1 && sort[0].field === "_id" && !p.distinct;
  const nextPage = p.includeNextPage && byIdOnly ? (sort[0].desc ? "lt" : "gt") : undefined;

  const byId = new Map(r.fields.map((f) => [f.id, f]));
  return {
    nextPage,
    query: {
      lastId: nextPage !== undefined,
      filters,
      fts,
      columns,
      sort,
      distinct: p.distinct,
      limit: p.limit,
      offset: p.offset,
      includeTotal: p.includeTotal,
      totalEstimationThreshold: p.totalEstimationThreshold,
    },
    columns: columns.map((id) => {
      if (id === "_id") return { id, type: "int" };
      if (ranks.has(id)) return { id, type: "float" };
      const f = byId.get(id)!;
      return f.info ? { id, type: f.type, info: f.info } : { id, type: f.type };
    }),
  };
}

/** Parses `filters` against the resource's fields into the engine's ANDed list. */
export function bindFilters(r: Resource, input: unknown): Filter[] {
  const ids = new Set(r.fields.map((f) => f.id));
  const tree = parseFilters(input, (field) => field === "_id" || ids.has(field));
  const filters = tree ? [tree] : [];
  const values = filterValueCount(filters);
  if (values > config.maxFilterValues) {
    throw DatastoreError.field("filters", `at most ${config.maxFilterValues} filter values are allowed per request (got ${values})`);
  }
  return filters;
}
