// datastore_search (contract §6): validate → resource exists (404) → may read (403) →
// query-level checks (409) → run. `_table_metadata` is answered from the catalog.
import { readResource, requireRead, type ActionContext } from "../context";
import { DatastoreError, ErrorBag } from "../errors";
import { EncodedJson, encodeRecords, type ColumnInfo, type RecordsFormat } from "../formats";
import type { Resource, SearchOutput, SearchQuery } from "../engine";
import { bindSearch, parseSearchParams } from "../search-query";
import { isUnset, requireResourceId, type Params } from "../validate";
import { parseAsOf, readAgain, resolveAsOf, resourceAt, type AsOf, type ResolvedVersion } from "../history";
import { parseSample, sampleSearch } from "../search-sample";
import { tableMetadataResource } from "./table-metadata";

const KNOWN = new Set([
  "resource_id", "id", "filters", "q", "full_text", "plain", "language", "distinct", "fields", "sort",
  "limit", "offset", "include_total", "total_estimation_threshold", "records_format", "include_next_page", "as_of",
  "sample",
]);
const FORMATS = ["objects", "lists", "csv", "tsv"];

type Bound = ReturnType<typeof bindSearch>;

export async function datastoreSearch(ctx: ActionContext, params: Params) {
  const bag = new ErrorBag();
  const extras = Object.keys(params).filter((k) => !KNOWN.has(k));
  if (extras.length) for (const k of extras) bag.add("__extras", `invalid value "${k}"`);
  let resourceId = "";
  try {
    resourceId = requireResourceId(params);
  } catch {
    bag.add("resource_id", "Missing value");
  }
  const p = parseSearchParams(params, bag);
  const sample = parseSample(params, bag);
  let asOf: AsOf | undefined;
  try {
    asOf = parseAsOf(params.as_of);
  } catch (e) {
    if (!(e instanceof DatastoreError)) throw e;
    bag.add("as_of", String((e.details.as_of as string[])[0]));
  }
  const format = isUnset(params.records_format) ? "objects" : params.records_format;
  if (typeof format !== "string" || !FORMATS.includes(format)) {
    bag.add("records_format", `Value must be one of ${FORMATS.join(", ")}`);
  }
  if (asOf && resourceId === "_table_metadata") bag.add("as_of", "_table_metadata keeps no history: only its current list can be read");
  if (sample !== undefined && resourceId === "_table_metadata") bag.add("sample", "_table_metadata is read whole: no sample of it");
  bag.throwIfAny();

  const encoding = (bound: Bound) => ({ format: format as RecordsFormat, columns: bound.columns as ColumnInfo[] });
  const meta = resourceId === "_table_metadata" ? await tableMetadataResource(ctx) : null;
  let searched: { resource: Resource; bound: Bound; out: SearchOutput; at?: ResolvedVersion };
  if (meta) {
    const bound = bindSearch(meta.resource, p);
    searched = { resource: meta.resource, bound, out: meta.search(bound.query) };
  } else {
    // The past is bound to its own field list, known once as_of is resolved.
    const decide = (r: Resource) => {
      requireRead(ctx, r, "datastore_search");
      return asOf ? undefined : bindSearch(r, p);
    };
    const read = (r: Resource, query: SearchQuery) => (sample === undefined ? ctx.engine.search(r, query) : sampleSearch(ctx.engine, r, query, sample));
    searched = await readResource(ctx, resourceId, decide, async (r, decided) => {
      // A version no row changed since reads the current rows, as a search without as_of.
      const at = asOf && (await resolveAsOf(ctx.engine, r, asOf));
      const bound = decided ?? bindSearch(await resourceAt(ctx.engine, r, at), p);
      const query = { ...bound.query, encode: encoding(bound), ...(at && !at.current ? { asOf: at.version } : {}) };
      let out = await read(r, query);
      if (at && (await readAgain(ctx.engine, r, at))) {
        // The copy read before the write counts the rows of before it: read the resource again.
        out = await read((await ctx.engine.getResource(r.id)) ?? r, { ...query, asOf: at.version });
      }
      return { resource: r, bound, out, at };
    });
  }
  const { resource, bound, out, at } = searched;
  const encode = encoding(bound);

  const result: Record<string, unknown> = {
    include_total: p.includeTotal,
    resource_id: resource.id,
    records_format: format,
    limit: sample ?? p.limit,
    // Echoed as an integer; with it, a total too slow to count may be estimated (lib/datastore/sqlite/count.ts).
    total_estimation_threshold: p.totalEstimationThreshold ?? null,
  };
  if (p.filters) result.filters = p.filters;
  if (p.q !== undefined) result.q = p.q;
  if (p.fullText !== undefined) result.full_text = p.fullText;
  for (const key of ["sort", "distinct", "plain", "language"] as const) {
    if (params[key] !== undefined) result[key] = key === "sort" ? params.sort : key === "language" ? p.language : p[key];
  }
  if (params.offset !== undefined && params.offset !== null && params.offset !== "") result.offset = p.offset;
  if (sample !== undefined) result.sample = sample;
  result.fields = bound.columns;

  result.records = new EncodedJson(out.records ?? encodeRecords(encode.format, encode.columns, out.rows));
  if (p.includeTotal) {
    result.total = out.total;
    result.total_was_estimated = out.totalEstimated ?? false;
  }
  // Always echoed, as CKAN 2.12 does (its schema defaults it to false).
  result.include_next_page = p.includeNextPage;
  // next_page only after a non-empty page in `_id` order (CKAN 2.12).
  if (bound.nextPage && out.lastId !== undefined) result.next_page = { _id: { [bound.nextPage]: out.lastId } };
  if (at) result.as_of = { version: at.version, time: at.time };
  return result;
}
