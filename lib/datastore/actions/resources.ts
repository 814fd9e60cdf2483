// CKAN core's resource_show and resource_search over our catalog (contract §0), so clients
// can discover resources. Private resources are listed only to tokens that may read them;
// a resource whose table was dropped is listed with datastore_active false, as in CKAN.
import { canRead, findResource, requireRead, type ActionContext } from "../context";
import type { Resource } from "../engine";
import { ErrorBag } from "../errors";
import { asInt, isUnset, requireResourceId, str, type Params } from "../validate";

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

const SEARCHABLE = ["id", "name", "description", "url_type", "format"] as const;
const ORDERABLE = new Set([...SEARCHABLE, "created", "last_modified", "row_count"]);

export async function resourceSearch(ctx: ActionContext, params: Params) {
  const bag = new ErrorBag();
  const terms: [string, string][] = [];
  const queries = isUnset(params.query) ? [] : Array.isArray(params.query) ? params.query : [params.query];
  for (const q of queries) {
    const m = typeof q === "string" ? /^\s*([a-z_]+)\s*:(.*)$/.exec(q) : null;
    if (!m || !(SEARCHABLE as readonly string[]).includes(m[1])) bag.add("query", `invalid value ${JSON.stringify(q)}`);
    else terms.push([m[1], m[2].trim().toLowerCase()]);
  }
  const orderBy = isUnset(params.order_by) ? "name" : str(params.order_by);
  if (!ORDERABLE.has(orderBy)) bag.add("order_by", `invalid value "${orderBy}"`);
  const offset = asInt(params.offset, "offset", bag, 0, "Must be a natural number");
  const limit = asInt(params.limit, "limit", bag, 1000, "Must be a natural number");
  bag.throwIfAny();

  const matches = (await ctx.engine.listResources())
    .filter((r) => canRead(ctx.user, r))
    .map((r) => resourceDict(r, ctx.siteUrl))
    .filter((d) => terms.every(([k, term]) => String(d[k as keyof typeof d] ?? "").toLowerCase().includes(term)))
    .sort((a, b) => {
      const x = a[orderBy as keyof typeof a] as string | number;
      const y = b[orderBy as keyof typeof b] as string | number;
      return x < y ? -1 : x > y ? 1 : 0;
    });
  return { count: matches.length, results: matches.slice(offset, offset + limit) };
}
