// The benchmark's serving floor: a bare `node:http` server on one thread that answers the
// bench's query mix from the same SQLite file with the engine's own plain statements (page,
// then count), prepared once, and nothing else: no validation, no auth, no pool, no caches but
// the table's total; full-text pages in `_id` order rather than best-first (below).
// `npm run bench` starts it as a child process:
//   node --import tsx scripts/bare-server.ts <db> <port> <resource> '<JSON list of bodies>'
// and POSTs the same bodies to /api/action/datastore_search.
import http from "node:http";
import Database from "better-sqlite3";
import { ErrorBag } from "../lib/datastore/errors";
import { openEngine } from "../lib/datastore/open";
import type { SqliteEngine } from "../lib/datastore/sqlite/engine";
import { registerFtsFunctions } from "../lib/datastore/sqlite/fts-text";
import { attachAll } from "../lib/datastore/sqlite/groups";
import { bindSearch, parseSearchParams } from "../lib/datastore/search-query";

type Body = Record<string, unknown>;

async function main() {
  const [db, port, resourceId, bodiesJson] = process.argv.slice(2);
  const bodies = JSON.parse(bodiesJson) as Body[];
  const engine = (await openEngine({ file: db, readWorkers: 0 })) as SqliteEngine;
  const resource = (await engine.getResource(resourceId))!;
  const raw = new Database(db, { readonly: true, fileMustExist: true });
  raw.function("ds_deadline", () => 1); // the engine's time-budget check: never trips here
  registerFtsFunctions(raw);
  attachAll(raw, db); // the resource's table is in its group file

  // One entry per body: its statements (page, then count), and the output column names.
  // The fastest plain way SQLite has for each, rather than our engine's shapes, so the floor is
  // a demanding one: a full-text page reads the matches' first rowids from the index and joins
  // the rows to them (best-first order costs a score for every match, which our server keeps
  // ranked lists for), and the table's total is counted once, at start (our server keeps it).
  type Prepared = { stmt: Database.Statement; params: unknown[] };
  const answers = new Map<string, { statements: Prepared[]; columns: string[]; total?: number }>();
  for (const body of bodies) {
    const bound = bindSearch(resource, parseSearchParams(body, new ErrorBag()));
    const statements: Prepared[] = engine.searchStatements(resource, bound.query).map((s) => ({ stmt: raw.prepare(s.sql), params: s.params }));
    const [page, count] = engine.searchStatements(resource, bound.query);
    if (bound.query.fts.length && !body.sort) {
      const fts = /JOIN ("[^"]+_fts")/.exec(page.sql)![1];
      const columns = /^SELECT (.*?), bm25\(/.exec(page.sql)![1];
      const table = /FROM ("[^"]+") AS t/.exec(page.sql)![1];
      const sql = `SELECT ${columns} FROM (SELECT rowid AS r FROM ${fts} WHERE ${fts} MATCH ? ORDER BY rowid LIMIT ?) f JOIN ${table} AS t ON t._id = f.r ORDER BY t._id`;
      statements[0] = { stmt: raw.prepare(sql), params: [page.params[0], bound.query.limit] };
    }
    const unfiltered = count && !bound.query.fts.length && !bound.query.filters.length;
    const total = unfiltered ? (raw.prepare(count.sql).pluck().get(...count.params) as number) : undefined;
    answers.set(JSON.stringify({ resource_id: resourceId, ...body }), { statements: unfiltered ? [statements[0]] : statements, columns: bound.query.columns, total });
  }
  await engine.close();

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
        const [page, count] = answer.statements;
        const records = (page.stmt.raw(true).all(...page.params) as unknown[][]).map((row) => Object.fromEntries(answer.columns.map((c, i) => [c, row[i]])));
        const result: Body = { records };
        if (count) result.total = count.stmt.pluck().get(...count.params);
        else if (answer.total !== undefined) result.total = answer.total;
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ success: true, result }));
      });
    })
    .listen(Number(port), "127.0.0.1", () => console.log("ready"));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
