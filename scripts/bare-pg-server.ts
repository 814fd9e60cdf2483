// The PostgreSQL bench's serving floor, as scripts/bare-server.ts is SQLite's: a bare `node:http`
// server on one thread that answers the bench's query mix with CKAN's own datastore_search SQL
// (ckan-sql.ts: the page as JSON text built in SQL, then count(*) of the matches), each statement
// prepared once per connection, on a `pg` pool of the engine's default size, and nothing else: no
// validation, no auth, no transaction, no caches but the table's total (our server keeps it too).
// Full-text pages in `_id` order rather than by rank (CKAN ranks every match for each page; our
// server keeps ranked lists), so the floor is a demanding one. `npm run bench -- --engine
// postgres` starts it as a child process:
//   node --import tsx scripts/bare-pg-server.ts <url> <schema> <port> <resource> '<JSON list of bodies>'
// and POSTs the same bodies to /api/action/datastore_search.
import http from "node:http";
import pg from "pg";
import type { StoredField } from "../lib/datastore/postgres/resource";
import { ckanSql } from "./ckan-sql";

type Body = Record<string, unknown>;

/** The engine's default pool (DATASTORE_PG_POOL). */
const POOL_SIZE = 8;

async function main() {
  const [url, schema, port, resourceId, bodiesJson] = process.argv.slice(2);
  const bodies = JSON.parse(bodiesJson) as Body[];
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE, options: `-c search_path=${schema}` });
  const { rows } = await pool.query<{ table_name: string; fields: string; row_count: string }>(
    "SELECT table_name, fields::text AS fields, row_count::text AS row_count FROM datastore_resources WHERE id = $1",
    [resourceId],
  );
  const table = rows[0].table_name;
  const fields = JSON.parse(rows[0].fields) as StoredField[];

  // One entry per body: its statements, named, and the total when it is the table's.
  type Statement = { name: string; text: string; values: unknown[] };
  const answers = new Map<string, { page: Statement; count?: Statement; total?: number }>();
  bodies.forEach((body, i) => {
    const ranked = typeof body.q === "string" && body.sort === undefined;
    const sql = ckanSql({ body: ranked ? { ...body, sort: "_id" } : body }, table, fields, resourceId, schema);
    const [page, count] = sql.statements.map((s, j) => ({ name: `floor_${i}_${j}`, ...s }));
    const unfiltered = count !== undefined && count.text.includes("datastore_resources");
    answers.set(JSON.stringify({ resource_id: resourceId, ...body }), { page, count: unfiltered ? undefined : count, total: unfiltered ? Number(rows[0].row_count) : undefined });
  });

  http
    .createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const answer = answers.get(Buffer.concat(chunks).toString("utf8"));
        if (!answer) {
          res.writeHead(404).end();
          return;
        }
        void (async () => {
          const client = await pool.connect();
          try {
            const page = await client.query<{ j: string | null }>(answer.page);
            let total = answer.total;
            if (answer.count) total = Number((await client.query<{ count: string }>(answer.count)).rows[0].count);
            const records = page.rows[0]?.j ?? "[]";
            res.writeHead(200, { "content-type": "application/json" }).end(`{"success": true, "result": {"records": ${records}${total === undefined ? "" : `, "total": ${total}`}}}`);
          } finally {
            client.release();
          }
        })().catch((e: unknown) => {
          console.error(e);
          res.writeHead(500).end();
        });
      });
    })
    .listen(Number(port), "127.0.0.1", () => console.log("ready"));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
