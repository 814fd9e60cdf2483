// CKAN core's resource_show and resource_search over our catalog (contract §0), so clients
// can discover resources. Private resources are listed only to tokens that may read them;
// a resource whose table was dropped is listed with datastore_active false, as in CKAN.
import { CATALOG_CONTAINS, CATALOG_ORDER, queryWords, type CatalogQuery } from "../catalog-search";
import { findResource, hasScope, requireRead, type ActionContext } from "../context";
import type { Resource } from "../engine";
import { ErrorBag } from "../errors";
import { asBool, asInt, isUnset, requireResourceId, str, type Params } from "../validate";

/** `siteUrl`: the public base URL the dump link starts with (CKAN's is absolute). */
export function resourceDict(r: Resource, siteUrl = "") {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    url: `${siteUrl}/datastore/dump/${encodeURIComponent(r.id)}`,
    url_type: r.urlType,
    format: "CSV",
    state: "active",
    datastore_active: r.active,
    private: r.private,
    created: r.created,
    last_modified: r.modified,
    row_count: r.rowCount,
    aliases: r.aliases,
  };
}

export async function resourceShow(ctx: ActionContext, params: Params) {
  const r = await findResource(ctx, requireResourceId(params, "id"), { inactive: true });
  requireRead(ctx, r, "resource_show");
  return resourceDict(r, ctx.siteUrl);
}

/** Fields `query: "field:term"` may name; `format` is every resource's CSV. */
const SEARCHABLE = [...Object.keys(CATALOG_CONTAINS), "format"];
/** Resources a page may hold at most: the catalog is paged, never listed whole. */
const MAX_LIMIT = 1000;

/**
 * CKAN's resource_search, and what a catalog of thousands needs: `q`, words anywhere in the
 * name, description, aliases, field ids and labels (catalog-search.ts); `order_by` a field, or
 * `"field desc"`, by name unless asked (`rows` is row_count); `has_table: true` leaves out
 * resources without a data table. `count` is every match, `results` the page.
 */
export async function resourceSearch(ctx: ActionContext, params: Params) {
  const bag = new ErrorBag();
  const contains: CatalogQuery["contains"] = [];
  let none = false;
  const queries = isUnset(params.query) ? [] : Array.isArray(params.query) ? params.query : [params.query];
  for (const q of queries) {
    const m = typeof q === "string" ? /^\s*([a-z_]+)\s*:(.*)$/.exec(q) : null;
    if (!m || !SEARCHABLE.includes(m[1])) bag.add("query", `invalid value ${JSON.stringify(q)}`);
    else if (m[1] === "format") none ||= !"csv".includes(m[2].trim().toLowerCase());
    else contains.push({ column: CATALOG_CONTAINS[m[1] as keyof typeof CATALOG_CONTAINS], term: m[2].trim().toLowerCase() });
  }
  if (!isUnset(params.q) && typeof params.q !== "string") bag.add("q", "Must be a string");
  const order = /^\s*([a-z_]+)(?:\s+(asc|desc))?\s*$/i.exec(isUnset(params.order_by) ? "name" : str(params.order_by));
  const orderBy = order && Object.hasOwn(CATALOG_ORDER, order[1]) ? CATALOG_ORDER[order[1] as keyof typeof CATALOG_ORDER] : undefined;
  if (!orderBy) bag.add("order_by", `invalid value "${str(params.order_by)}"`);
  const offset = asInt(params.offset, "offset", bag, 0, "Must be a natural number");
  const limit = asInt(params.limit, "limit", bag, MAX_LIMIT, "Must be a natural number", MAX_LIMIT);
  bag.throwIfAny();
  if (none) return { count: 0, results: [] };

  const page = await ctx.engine.searchResources({
    words: typeof params.q === "string" ? queryWords(params.q) : [],
    contains,
    readPrivate: hasScope(ctx.user, "read"),
    only: ctx.user.resources,
    hasTable: asBool(params.has_table, false),
    orderBy: orderBy!,
    desc: order![2]?.toLowerCase() === "desc",
    limit,
    offset,
  });
  return { count: page.count, results: page.resources.map((r) => resourceDict(r, ctx.siteUrl)) };
}
