// datastore_search_all (extension): one full-text question (`q`, `plain`, `language` as
// datastore_search takes them) over every resource the caller may read, each searched as
// datastore_search searches it with `sort: "_id"` (the same authorization and read path: the
// read workers or the read pool), several at a time. In `_id` order a search needs no ranking of
// every match: its first records are the first matches, its total the full-text index's own
// count (a ranked search of a common word over millions of rows ranks each match). Resources
// with matches come back best first (most matches), each with its total and its first `limit`
// records; what `budget_ms` left unsearched is named in `not_searched`, with `partial: true`.
import { canRead, hasScope, readResource, requireRead, type ActionContext } from "../context";
import type { Resource } from "../engine";
import { DatastoreError, ErrorBag } from "../errors";
import { encodeRecords, type ColumnInfo } from "../formats";
import { bindSearch, parseSearchParams, type SearchParams } from "../search-query";
import { asInt, isUnset, type Params } from "../validate";

const KNOWN = new Set(["q", "plain", "language", "limit", "budget_ms"]);
const DEFAULT_LIMIT = 3;
const MAX_LIMIT = 100;
/** A person waits about this long for an answer across every table. */
const DEFAULT_BUDGET_MS = 5000;
const MAX_BUDGET_MS = 60_000;
/** Searches at once: enough to keep every read worker (or pooled connection) busy. */
const AT_ONCE = 4;
/** Catalog rows read per step while listing the resources to search. */
const CATALOG_PAGE = 1000;

interface Found {
  resource_id: string;
  name: string;
  total: number;
  records: unknown[];
}

export async function datastoreSearchAll(ctx: ActionContext, params: Params) {
  const bag = new ErrorBag();
  for (const k of Object.keys(params)) if (!KNOWN.has(k)) bag.add("__extras", `invalid value "${k}"`);
  if (isUnset(params.q) || typeof params.q !== "string" || !params.q.trim()) bag.add("q", "Missing value");
  const limit = asInt(params.limit, "limit", bag, DEFAULT_LIMIT, "Must be a natural number", MAX_LIMIT);
  const budgetMs = asInt(params.budget_ms, "budget_ms", bag, DEFAULT_BUDGET_MS, "Must be a natural number", MAX_BUDGET_MS);
  const p = parseSearchParams({ q: params.q, plain: params.plain, language: params.language, limit, sort: "_id" }, bag);
  bag.throwIfAny();
  const deadline = performance.now() + budgetMs;

  // Searched in the order they were created: neighbours in the store stay together (SQLite's
  // group files fill in that order, and a read worker keeps a few attached).
  const resources = (await readable(ctx)).sort((a, b) => (a.created < b.created ? -1 : a.created > b.created ? 1 : a.id < b.id ? -1 : 1));
  const results: Found[] = [];
  const notSearched = new Set(resources.map((r) => r.id));
  let next = 0;
  const searchOne = async (r: Resource) => {
    const found = await searchPart(ctx, r.id, p);
    notSearched.delete(r.id);
    if (found.total > 0) results.push({ resource_id: found.id, name: found.name, total: found.total, records: found.records });
  };
  const worker = async () => {
    while (next < resources.length && performance.now() < deadline) {
      const r = resources[next++];
      try {
        await searchOne(r);
      } catch (e) {
        // A table that cannot answer (gone meanwhile, too slow for the read limit) is left out,
        // named in not_searched; anything else is a fault.
        if (!(e instanceof DatastoreError)) throw e;
      }
    }
  };
  const all = Promise.all(Array.from({ length: Math.min(AT_ONCE, resources.length) }, worker));
  let timer: NodeJS.Timeout | undefined;
  const outOfTime = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - performance.now()))));
  try {
    await Promise.race([all, outOfTime]);
  } finally {
    clearTimeout(timer);
  }
  next = resources.length; // nothing more starts; searches still running finish unseen
  all.catch((e) => console.error("datastore_search_all: a search failed after the answer", e));

  const answered = [...results].sort((a, b) => b.total - a.total || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const unsearched = resources.filter((r) => notSearched.has(r.id)).map((r) => r.id);
  return { q: params.q, results: answered, partial: unsearched.length > 0, not_searched: unsearched };
}

/** One search of one resource, as datastore_search reads it. */
function searchPart(ctx: ActionContext, id: string, p: SearchParams) {
  return readResource(
    ctx,
    id,
    (res) => {
      requireRead(ctx, res, "datastore_search_all");
      return bindSearch(res, p);
    },
    async (res, bound) => {
      const out = await ctx.engine.search(res, { ...bound.query, includeTotal: true });
      const records = JSON.parse(new TextDecoder().decode(encodeRecords("objects", bound.columns as ColumnInfo[], out.rows))) as unknown[];
      return { id: res.id, name: res.name, total: out.total ?? records.length, records };
    },
  );
}

/** Every resource with a table the caller may read, by name (the catalog, a page at a time). */
async function readable(ctx: ActionContext): Promise<Resource[]> {
  const out: Resource[] = [];
  for (let offset = 0; ; offset += CATALOG_PAGE) {
    const page = await ctx.engine.searchResources({
      words: [],
      contains: [],
      readPrivate: hasScope(ctx.user, "read"),
      only: ctx.user.resources,
      hasTable: true,
      orderBy: "name",
      desc: false,
      limit: CATALOG_PAGE,
      offset,
    });
    out.push(...page.resources.filter((r) => canRead(ctx.user, r)));
    if (page.resources.length < CATALOG_PAGE) return out;
  }
}
