// datastore_search_all (extension): one full-text question (`q`, `plain`, `language` as
// datastore_search takes them) over every resource the caller may read, each searched as
// datastore_search searches it (the same authorization and read path: the read workers or the
// read pool), several at a time, a table of millions of rows in parts. Resources with matches come back best first (most matches),
// each with its total and its first `limit` records; what `budget_ms` left unsearched is named
// in `not_searched`, with `partial: true`.
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
/** Rows from which one table is searched in PARTS ranges of `_id` side by side (a word's exact
 *  total over millions of rows takes seconds, and would be most of the whole answer's time). */
const SPLIT_ROWS = 1_000_000;
const PARTS = 2;
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
  const p = parseSearchParams({ q: params.q, plain: params.plain, language: params.language, limit }, bag);
  bag.throwIfAny();
  const deadline = performance.now() + budgetMs;

  const resources = await readable(ctx);
  const results: Found[] = [];
  const notSearched = new Set(resources.map((r) => r.id));
  let next = 0;
  const searchOne = async (r: Resource) => {
    const parts = r.rowCount >= SPLIT_ROWS ? idRanges(r.rowCount) : [undefined];
    const found = await Promise.all(parts.map((range) => searchPart(ctx, r.id, range ? { ...p, filters: { _id: range } } : p)));
    notSearched.delete(r.id);
    const total = found.reduce((n, f) => n + f.total, 0);
    if (total > 0) results.push({ resource_id: found[0].id, name: found[0].name, total, records: found.flatMap((f) => f.records).slice(0, limit) });
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

/** PARTS ranges of `_id` that together hold every id, of about as many rows each (ids start at
 *  1; the last range is open, so ids past the row count, after deletes, are in it too). */
export function idRanges(rows: number): Record<string, number>[] {
  const step = Math.ceil(rows / PARTS);
  return Array.from({ length: PARTS }, (_, i) => ({ ...(i > 0 ? { gte: i * step + 1 } : {}), ...(i < PARTS - 1 ? { lt: (i + 1) * step + 1 } : {}) }));
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
