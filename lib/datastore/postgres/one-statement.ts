// A search in one statement, outside any transaction (a statement sees one snapshot): a check of
// the copy of the resource it was planned on (catalog.ts copyCheck), the page, and its total when
// one must be counted, the page and the count gated by the check, so a copy behind the catalog
// reads no rows. Prepared once per connection (connection.ts). It answers one row per
// page row (one row for an empty page): the check, the page's length, the total, then the page.
import type pg from "pg";
import type { SearchOutput, SearchQuery } from "../engine";
import { encodeRecords } from "../formats";
import { copyCheck } from "./catalog";
import { prepared } from "./connection";
import { countPlan } from "./count";
import { rankedPage, type IdRanks } from "./ranked";
import { limitParam, pageSql, type ReadPlan } from "./read-plan";
import type { PgResource } from "./resource";
import { pageOutput, totalFromPage } from "./search";

/** How the copy is checked: against the name it was looked up by (on the primary: it may be a
 *  copy kept from an earlier request), or not at all (the caller's copy stands: a replica whose
 *  version was checked first, a dump's chunks). */
export type CopyCheckMode = { name: string } | "none";

/** The check failed: the copy is behind the catalog. Nothing was read. */
export const NOT_CURRENT = Symbol("not current");

/** `plan`: the search's (read-plan.ts), for a search that inOneStatement (search.ts) allows. */
export async function searchOnce(db: pg.PoolClient, r: PgResource, query: SearchQuery, plan: ReadPlan, check: CopyCheckMode): Promise<SearchOutput | typeof NOT_CURRENT> {
  const values: unknown[] = [...plan.params, limitParam(query.limit), query.offset];
  const limit = `$${plan.params.length + 1}::int8`;
  const offset = `$${plan.params.length + 2}::int8`;
  const how = countPlan(r, plan, query);
  // PostgreSQL runs a CASE branch's subquery only when the branch is taken: no count when the
  // check failed, or when a page short of its limit tells the total (totalFromPage).
  const short = `${limit} IS NOT NULL AND (SELECT count(*) FROM p) < ${limit} AND ((SELECT count(*) FROM p) > 0 OR ${offset} = 0)`;
  const total = query.includeTotal && !("rows" in how) ? (gate: string) => `CASE WHEN NOT ${gate} OR (${short}) THEN NULL ELSE (${how.sql}) END` : undefined;
  const answer = await once(db, r, check, values, (gate) => pageSql(r, plan, query.distinct, gate), total);
  if (answer === NOT_CURRENT) return answer;
  const out = pageOutput(plan, query, answer.rows);
  if (query.includeTotal) {
    out.total = totalFromPage(query, answer.rows.length) ?? ("rows" in how ? how.rows : answer.total!);
    out.totalEstimated = false;
  }
  return out;
}

/** A best-first page from a ranked list kept for this copy's version (ranked.ts): its rows,
 *  and the list's length as the total. */
export async function rankedOnce(db: pg.PoolClient, r: PgResource, query: SearchQuery, plan: ReadPlan, list: IdRanks, check: CopyCheckMode): Promise<SearchOutput | typeof NOT_CURRENT> {
  const page = rankedPage(r, plan.where, list, query);
  const answer = await once(db, r, check, [page.ids], (gate) => page.sql(gate));
  if (answer === NOT_CURRENT) return answer;
  const rows = page.decode(answer.rows);
  const out: SearchOutput = query.encode ? { rows: [], records: encodeRecords(query.encode.format, query.encode.columns, rows) } : { rows };
  if (query.includeTotal) Object.assign(out, { total: list.ids.length, totalEstimated: false });
  return out;
}

/** Runs `page` (and `total`) gated by the check, in one statement: the page's rows and the
 *  counted total (null when not counted). `values`: the page's and the total's; the check's are
 *  appended. */
async function once(
  db: pg.PoolClient,
  r: PgResource,
  check: CopyCheckMode,
  values: unknown[],
  page: (gate?: string) => string,
  total?: (gate: string) => string,
): Promise<{ rows: unknown[][]; total: number | null } | typeof NOT_CURRENT> {
  const cte = check === "none" ? "SELECT true AS ok" : copyCheck(r, check.name, values);
  const gate = check === "none" ? undefined : "coalesce((SELECT ok FROM c), false)";
  const text =
    `WITH c AS (${cte}), p AS (${page(gate)}) ` +
    `SELECT coalesce((SELECT ok FROM c), false), (SELECT count(*) FROM p)::int4, ${total ? total(gate ?? "true") : "NULL::int8"}, p.* FROM (SELECT 1) AS one LEFT JOIN p ON true`;
  // A past version's statement (history.ts) runs unnamed: planned with its values each time, as
  // a generic plan of its two tables misjudges a filter's matches and sorts them all.
  const { rows } = await db.query<unknown[]>({ ...(r.source === undefined ? prepared(db, text) : { text }), values, rowMode: "array" });
  const head = rows[0];
  if (head[0] !== true) return NOT_CURRENT;
  return { rows: Number(head[1]) === 0 ? [] : rows.map((row) => row.slice(3)), total: head[2] === null ? null : Number(head[2]) };
}
