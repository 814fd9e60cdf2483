// CKAN's own datastore_search SQL for the bench's request bodies, on the PostgreSQL engine's
// table of the bench resource: the floor its pages are measured against (bench-postgres.ts, run
// directly) and what the bare server answers with (bare-pg-server.ts).
import type { StoredField } from "../lib/datastore/postgres/resource";

export interface FloorSql {
  statements: { text: string; values: unknown[] }[];
  /** Not a CKAN action: the plain SQL a by-hand client would run. */
  byHand?: boolean;
}

export const ident = (s: string) => `"${s.replace(/"/g, '""')}"`;

/**
 * CKAN's datastore_search SQL (search_data and its plugin's datastore_search, records_format
 * objects) for one of the bench's bodies, on the resource's table: the page as one JSON text,
 * then the total (count(*) over the matching rows when filtered, else the cached row count —
 * CKAN's `_table_stats`, our catalog's row_count).
 */
export function ckanSql(q: { action?: string; body: Record<string, unknown> }, table: string, fields: StoredField[], resource: string, schema: string): FloorSql {
  const column = (id: string) => (id === "_id" ? "_id" : fields.find((f) => f.id === id)!.column);
  const typeOf = (id: string) => (id === "_id" ? "int8" : fields.find((f) => f.id === id)!.type);
  const body = q.body;
  if (q.action === "datastore_value_counts") {
    const c = ident(column(String(body.field)));
    return { byHand: true, statements: [{ text: `SELECT ${c} AS value, count(*) AS count FROM ${ident(table)} GROUP BY ${c} ORDER BY count(*) DESC LIMIT ${Number(body.limit ?? 10)}`, values: [] }] };
  }
  const values: unknown[] = [];
  const param = (v: unknown) => {
    values.push(v);
    return `$${values.length}`;
  };
  const text = typeof body.q === "string" ? body.q : undefined;
  const tsQuery = text ? `, plainto_tsquery('english', ${param(text)}) "query"` : "";
  const rank = `ts_rank("_full_text", "query", 32)`;
  const selectFor = (id: string) => (typeOf(id) === "timestamp" ? `to_char(${ident(column(id))}, 'YYYY-MM-DD"T"HH24:MI:SS') as ${ident(id)}` : `${ident(column(id))} as ${ident(id)}`);
  const ids = typeof body.fields === "string" ? body.fields.split(",") : ["_id", ...fields.map((f) => f.id)];
  const select = [...ids.map(selectFor), ...(text && typeof body.fields !== "string" ? [`${rank} as "rank"`] : [])].join(", ");

  const clauses: string[] = [];
  const filters = (body.filters ?? {}) as Record<string, unknown>;
  const parts = Object.entries(filters).map(([id, v]) => {
    const c = ident(column(id));
    if (Array.isArray(v)) return `${c} in (${v.map(param).join(",")})`;
    if (v && typeof v === "object") {
      const ops: Record<string, string> = { gt: ">", gte: ">=", lt: "<", lte: "<=", eq: "=" };
      return `(${Object.entries(v as Record<string, unknown>).map(([op, x]) => `${c} ${ops[op]} ${param(x)}`).join(" AND ")})`;
    }
    return `${c} = ${param(v)}`;
  });
  if (parts.length) clauses.push(parts.length === 1 ? parts[0] : `(${parts.join(" AND ")})`);
  if (text) clauses.push(`"_full_text" @@ "query"`);
  const where = clauses.length ? `WHERE ${clauses.join(" AND ")}` : "";

  const distinct = body.distinct === true;
  let sort: string[] = [];
  if (typeof body.sort === "string") {
    sort = body.sort.split(",").map((s) => {
      const [id, dir] = s.trim().split(/\s+/);
      return `${ident(column(id))} ${dir ?? "asc"}`;
    });
  } else if (text) sort = [`${rank} DESC`];
  if (!sort.length && !distinct) sort = ['"_id" asc'];
  const sortClause = sort.length ? `ORDER BY ${sort.join(", ")}` : "";
  const limit = Number(body.limit ?? 100);
  const offset = Number(body.offset ?? 0);
  const final = distinct ? where : `${where} ${sortClause} LIMIT ${limit} OFFSET ${offset}`;
  const distinctFinal = distinct ? `${sortClause} LIMIT ${limit} OFFSET ${offset}` : "";
  const page = `WITH records_page AS (SELECT * FROM ${ident(table)} ${tsQuery} ${final}),
    select_cols AS (SELECT ${distinct ? "DISTINCT" : ""} ${select} FROM records_page ${distinctFinal}),
    json_cols AS (SELECT array_to_json(array_agg(select_cols))::text j FROM select_cols)
    SELECT json_cols.j FROM json_cols`;
  const statements = [{ text: page, values }];
  if (body.include_total !== false) {
    if (where || distinct) {
      statements.push({ text: `SELECT count(*) FROM (SELECT ${distinct ? "DISTINCT" : ""} ${select} FROM ${ident(table)} ${tsQuery} ${where}) as t`, values });
    } else {
      statements.push({ text: `SELECT row_count FROM ${ident(schema)}.datastore_resources WHERE id = $1`, values: [resource] });
    }
  }
  return { statements };
}
