// The SQLite engine: each resource is a table `ds_<hex>` with `_id` and one column `cN` per
// field (positional names keep CKAN's case-sensitive field ids safe in SQLite's
// case-insensitive identifiers), plus a contentless FTS5 table `<table>_fts` kept in step
// with every write in the same transaction. The catalog (lib/db/migrations) maps ids, aliases
// and field ids to these names.
import Database from "better-sqlite3";
import { randomBytes } from "node:crypto";
import type { DB } from "../../db/connection";
import type {
  BulkLoad,
  DatastoreEngine,
  Field,
  Filter,
  FtsCondition,
  NewResource,
  Resource,
  ResourceStats,
  SearchOutput,
  SearchQuery,
  ValueCountsOutput,
  WriteMethod,
} from "../engine";
import { config } from "../../config";
import type { FieldStats } from "../auto-index";
import { DatastoreError } from "../errors";
import { RecordsWriter } from "../formats";
import {
  CastError,
  fromStorage,
  isArrayType,
  sqliteType,
  toStorage,
  type Stored,
  type TypeName,
} from "../types";
import type { ReadPool } from "./read-pool";
import { BulkLoader } from "./bulk-load";
import { str } from "../validate";
import { compileFts, ftsSource, quoteIdent as q } from "./sql";

interface StoredField extends Field {
  column: string;
}

interface Row {
  id: string;
  table_name: string;
  name: string;
  description: string;
  private: number;
  url_type: string;
  fields: string;
  primary_key: string;
  indexes: string;
  next_column: number;
  row_count: number;
  created: string;
  modified: string;
}

interface Internal extends Resource {
  table: string;
  columns: Map<string, StoredField>;
  nextColumn: number;
}

const ID_FIELD: StoredField = { id: "_id", type: "int8", column: "_id" };
/**
 * The full-text table reads its text through a view of the resource table (external content)
 * and keeps only which column holds each word, not positions (`detail=column`): about half
 * the index of full detail, and all that word, prefix and per-field queries need. FTS5 reads
 * a row back to unindex it, so a row leaves the index before the row itself changes, and
 * whatever fills the index selects from the same view (`ftsSource`).
 */
function ftsOptions(table: string): string {
  return `content=${q(ftsSource(table))}, content_rowid='_id', detail=column, tokenize='porter unicode61 remove_diacritics 2'`;
}

/** Value counts are exact when they fit this budget; otherwise counted over the first rows. */
const VALUE_COUNT_BUDGET_MS = 120;
const VALUE_COUNT_ROW_BUDGET = 100_000;

function now(): string {
  return new Date().toISOString().replace(/\.\d+Z$/, "");
}

function tooLong(): DatastoreError {
  return DatastoreError.field(
    "query",
    `Query took too long (over ${config.queryTimeoutMs} ms): narrow it with filters or a search, or ask for fewer rows`,
  );
}

function castError(e: unknown): DatastoreError | null {
  return e instanceof CastError ? DatastoreError.field("query", e.message) : null;
}

function bm25ToRank(raw: number | null): number {
  // bm25 is ≤ 0, lower is better; CKAN's rank is in [0, 1), higher is better.
  const s = raw === null ? 0 : -raw;
  return s / (1 + s);
}

/** Thrown from inside SQLite (by `ds_deadline()`) when a read runs past its time budget. */
class DeadlineExceeded extends Error {}

/** Per-connection deadline, checked by `ds_deadline()` every few hundred rows a read visits. */
const deadlines = new WeakMap<DB, { at: number }>();

/** Rows counted for an estimate when an exact count would exceed its budget. */
const ESTIMATE_SAMPLE_ROWS = 100_000;

/** Tables up to this size count from an index range without the deadline check. */
const INDEX_COUNT_MAX_ROWS = 4_000_000;
/** Prepared read statements kept per connection. */
const STATEMENT_CACHE = 256;

export class SqliteEngine implements DatastoreEngine {
  private statements = new Map<string, Database.Statement>();
  private sizes = new Map<string, { key: string; stats: ResourceStats }>();
  private indexOnlyPlans = new Map<string, boolean>();
  constructor(
    readonly db: DB,
    private pool?: ReadPool,
  ) {
    if (!deadlines.has(db)) {
      const state = { at: Infinity };
      deadlines.set(db, state);
      // better-sqlite3 has no sqlite3_interrupt: a function that throws stops the statement.
      db.function("ds_deadline", { deterministic: false }, () => {
        if (Date.now() > state.at) throw new DeadlineExceeded("deadline");
        return 1;
      });
    }
  }

  /**
   * A prepared read statement, kept for the next request with the same SQL: compiling one
   * cost about as much as running a first page (0.2 ms of 0.5 ms measured on 3M rows). Values
   * are bound, so the SQL of a resource's searches repeats; the least recently used go first.
   */
  private cached(sql: string, mode: "raw" | "pluck" | "row" = "row"): Database.Statement {
    const key = `${mode}\0${sql}`;
    let s = this.statements.get(key);
    if (s) this.statements.delete(key);
    else {
      s = this.db.prepare(sql);
      if (mode === "raw") s.raw(true);
      if (mode === "pluck") s.pluck(true);
      if (this.statements.size >= STATEMENT_CACHE) this.statements.delete(this.statements.keys().next().value!);
    }
    this.statements.set(key, s);
    return s;
  }

  /** Runs fn with reads limited to `ms` (nested budgets keep the earlier deadline). */
  private within<T>(ms: number, fn: () => T): T {
    const state = deadlines.get(this.db)!;
    const saved = state.at;
    state.at = Math.min(saved, Date.now() + ms);
    try {
      return fn();
    } finally {
      state.at = saved;
    }
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  // ----------------------------------------------------------------------------- catalog

  private load(row: Row | undefined): Internal | undefined {
    if (!row) return undefined;
    const stored = JSON.parse(row.fields) as StoredField[];
    const aliases = this.cached("SELECT alias FROM datastore_aliases WHERE resource_id = ? ORDER BY alias", "pluck").all(row.id) as string[];
    return {
      id: row.id,
      name: row.name,
      description: row.description,
      private: row.private === 1,
      urlType: row.url_type,
      fields: stored.map(({ id, type, info }) => (info ? { id, type, info } : { id, type })),
      primaryKey: JSON.parse(row.primary_key),
      indexes: JSON.parse(row.indexes),
      aliases,
      rowCount: row.row_count,
      created: row.created,
      modified: row.modified,
      table: row.table_name,
      columns: new Map(stored.map((f) => [f.id, f])),
      nextColumn: row.next_column,
    };
  }

  private internal(idOrAlias: string): Internal | undefined {
    // Two keyed lookups (an OR of both made SQLite scan the catalog).
    const row = this.cached(
      `SELECT * FROM datastore_resources WHERE id = @name
       UNION ALL SELECT r.* FROM datastore_aliases AS a JOIN datastore_resources AS r ON r.id = a.resource_id WHERE a.alias = @name
       LIMIT 1`,
    ).get({ name: idOrAlias }) as Row | undefined;
    return this.load(row);
  }

  private mustGet(id: string): Internal {
    const r = this.internal(id);
    if (!r) throw DatastoreError.notFound(`Resource "${id}" was not found.`);
    return r;
  }

  getResource(idOrAlias: string): Resource | undefined {
    return this.internal(idOrAlias);
  }

  listResources(): Resource[] {
    const rows = this.db.prepare("SELECT * FROM datastore_resources ORDER BY name, id").all() as Row[];
    return rows.map((r) => this.load(r)!);
  }

  nameOwner(name: string): string | undefined {
    return this.db
      .prepare(
        `SELECT id FROM datastore_resources WHERE id = @name
         UNION ALL SELECT resource_id FROM datastore_aliases WHERE alias = @name`,
      )
      .pluck()
      .get({ name }) as string | undefined;
  }

  private saveFields(r: Internal, fields: StoredField[], nextColumn: number): void {
    this.db
      .prepare("UPDATE datastore_resources SET fields = ?, next_column = ?, modified = ? WHERE id = ?")
      .run(JSON.stringify(fields), nextColumn, now(), r.id);
  }

  private touch(id: string, rowDelta: number): void {
    this.db
      .prepare("UPDATE datastore_resources SET row_count = row_count + ?, modified = ? WHERE id = ?")
      .run(rowDelta, now(), id);
  }

  // ------------------------------------------------------------------------------ schema

  createResource(meta: NewResource, fields: Field[]): Resource {
    const table = `ds_${randomBytes(8).toString("hex")}`;
    const stored = fields.map((f, i) => ({ ...f, column: `c${i + 1}` }));
    const columns = stored.map((f) => `${q(f.column)} ${sqliteType(f.type)}`);
    this.db.exec(
      `CREATE TABLE ${q(table)} (_id INTEGER PRIMARY KEY AUTOINCREMENT${columns.map((c) => `, ${c}`).join("")})`,
    );
    const ts = now();
    this.db
      .prepare(
        `INSERT INTO datastore_resources (id, table_name, name, description, private, fields, next_column, created, modified)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(meta.id, table, meta.name, meta.description, meta.private ? 1 : 0, JSON.stringify(stored), stored.length + 1, ts, ts);
    const r = this.mustGet(meta.id);
    this.rebuildFts(r);
    return r;
  }

  updateResourceMeta(id: string, meta: Partial<Omit<NewResource, "id">>): void {
    const r = this.mustGet(id);
    this.db
      .prepare("UPDATE datastore_resources SET name = ?, description = ?, private = ?, modified = ? WHERE id = ?")
      .run(meta.name ?? r.name, meta.description ?? r.description, (meta.private ?? r.private) ? 1 : 0, now(), id);
  }

  alterFields(id: string, add: Field[], infoUpdates: Field[], drop: string[]): void {
    let r = this.mustGet(id);
    // The index's view names the columns: it goes first, and is rebuilt after the change.
    if (add.length || drop.length) this.dropFts(r);
    let next = r.nextColumn;
    const byId = new Map(r.columns);
    for (const f of infoUpdates) {
      const cur = byId.get(f.id);
      if (cur) byId.set(f.id, { ...cur, info: f.info });
    }
    if (drop.length) {
      // Indexes and keys over a dropped column go with it.
      this.setPrimaryKey(id, r.primaryKey.some((k) => drop.includes(k)) ? [] : r.primaryKey);
      this.setIndexes(id, r.indexes.filter((ix) => !ix.some((k) => drop.includes(k))));
      for (const fid of drop) {
        const col = byId.get(fid);
        if (!col) continue;
        this.db.exec(`ALTER TABLE ${q(r.table)} DROP COLUMN ${q(col.column)}`);
        byId.delete(fid);
      }
    }
    for (const f of add) {
      const column = `c${next++}`;
      this.db.exec(`ALTER TABLE ${q(r.table)} ADD COLUMN ${q(column)} ${sqliteType(f.type)}`);
      byId.set(f.id, { ...f, column });
    }
    this.saveFields(r, [...byId.values()], next);
    if (add.length || drop.length) {
      r = this.mustGet(id);
      this.rebuildFts(r);
    }
  }

  private dropFts(r: Internal): void {
    this.db.exec(`DROP TABLE IF EXISTS ${q(`${r.table}_fts`)}`);
    this.db.exec(`DROP VIEW IF EXISTS ${q(ftsSource(r.table))}`);
  }

  /** Recreates the full-text table from the rows: needed when the set of columns changes. */
  private rebuildFts(r: Internal): void {
    const fts = `${r.table}_fts`;
    this.dropFts(r);
    const fields = [...r.columns.values()];
    if (fields.length === 0) return;
    const cols = fields.map((f) => q(f.column)).join(", ");
    const exprs = fields.map((f) =>
      f.type === "bool" ? `CASE ${q(f.column)} WHEN 1 THEN 'true' WHEN 0 THEN 'false' END AS ${q(f.column)}` : q(f.column),
    );
    this.db.exec(`CREATE VIEW ${q(ftsSource(r.table))} AS SELECT _id, ${exprs.join(", ")} FROM ${q(r.table)}`);
    this.db.exec(`CREATE VIRTUAL TABLE ${q(fts)} USING fts5(${cols}, ${ftsOptions(r.table)})`);
    this.db.exec(`INSERT INTO ${q(fts)} (${q(fts)}) VALUES ('rebuild')`);
  }

  private column(r: Internal, fieldId: string): StoredField {
    if (fieldId === "_id") return ID_FIELD;
    const f = r.columns.get(fieldId);
    if (!f) throw DatastoreError.field("fields", `field "${fieldId}" does not exist`);
    return f;
  }

  setPrimaryKey(id: string, fields: string[]): void {
    const r = this.mustGet(id);
    const name = `${r.table}_pk`;
    this.db.exec(`DROP INDEX IF EXISTS ${q(name)}`);
    if (fields.length) {
      const cols = fields.map((f) => q(this.column(r, f).column)).join(", ");
      try {
        this.db.exec(`CREATE UNIQUE INDEX ${q(name)} ON ${q(r.table)} (${cols})`);
      } catch (e) {
        if ((e as { code?: string }).code?.startsWith("SQLITE_CONSTRAINT")) {
          throw DatastoreError.field("constraints", `could not create unique index: existing rows have duplicate values for ${fields.join(", ")}`);
        }
        throw e;
      }
    }
    this.db.prepare("UPDATE datastore_resources SET primary_key = ? WHERE id = ?").run(JSON.stringify(fields), id);
  }

  setIndexes(id: string, indexes: string[][]): void {
    const r = this.mustGet(id);
    const wanted = new Map<string, string[]>();
    for (const ix of indexes) {
      const cols = ix.map((f) => this.column(r, f).column);
      wanted.set(`${r.table}_ix_${cols.join("_")}`, cols);
    }
    const existing = this.db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = ? AND name LIKE ?")
      .pluck()
      .all(r.table, `${r.table}_ix_%`) as string[];
    // Keep indexes that stay wanted: rebuilding one on millions of rows takes seconds.
    for (const name of existing) if (!wanted.has(name)) this.db.exec(`DROP INDEX ${q(name)}`);
    for (const [name, cols] of wanted) {
      if (!existing.includes(name)) {
        this.db.exec(`CREATE INDEX ${q(name)} ON ${q(r.table)} (${cols.map(q).join(", ")})`);
      }
    }
    this.db.prepare("UPDATE datastore_resources SET indexes = ? WHERE id = ?").run(JSON.stringify(indexes), id);
  }

  setAliases(id: string, aliases: string[]): void {
    this.db.prepare("DELETE FROM datastore_aliases WHERE resource_id = ?").run(id);
    const insert = this.db.prepare("INSERT INTO datastore_aliases (alias, resource_id) VALUES (?, ?)");
    for (const a of aliases) insert.run(a, id);
  }

  dropResource(id: string): void {
    const r = this.mustGet(id);
    this.dropFts(r);
    this.db.exec(`DROP TABLE IF EXISTS ${q(r.table)}`);
    this.db.prepare("DELETE FROM datastore_resources WHERE id = ?").run(id);
  }

  // ------------------------------------------------------------------------------- writes

  write(id: string, records: Record<string, unknown>[], method: WriteMethod): void {
    if (records.length === 0) return;
    this.transaction(() => {
      const r = this.mustGet(id);
      const writer = new RowWriter(this.db, r);
      let added = 0;
      records.forEach((record, i) => {
        try {
          added += writer.write(record, method, i);
        } catch (e) {
          if (e instanceof CastError) {
            throw DatastoreError.validation({ records: [e.message], records_row: i });
          }
          if ((e as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE") {
            throw DatastoreError.validation({
              records: [`duplicate key value violates unique constraint "${r.table}_pk"`],
              records_row: i,
            });
          }
          throw e;
        }
      });
      this.touch(id, added);
    });
  }

  bulkLoad(id: string, fields: string[]): BulkLoad {
    const r = this.mustGet(id);
    const targets = fields.map((f) => {
      if (f === "_id") throw DatastoreError.field("fields", `field "_id" cannot be loaded`);
      return this.column(r, f);
    });
    return new BulkLoader(this.db, r.table, [...r.columns.values()], targets, (added) => this.touch(id, added));
  }

  deleteRows(id: string, filters: Filter[]): number {
    return this.transaction(() => {
      const r = this.mustGet(id);
      const where = new Where(r);
      try {
        for (const f of filters) where.filter(f);
      } catch (e) {
        throw castError(e) ?? e;
      }
      const fts = `${r.table}_fts`;
      const hasFts = r.columns.size > 0;
      let deleted: number;
      if (where.parts.length === 0) {
        if (hasFts) this.db.exec(`INSERT INTO ${q(fts)} (${q(fts)}) VALUES ('delete-all')`);
        deleted = this.db.prepare(`DELETE FROM ${q(r.table)}`).run().changes;
      } else {
        const cond = where.sql();
        if (hasFts) {
          this.db
            .prepare(`DELETE FROM ${q(fts)} WHERE rowid IN (SELECT _id FROM ${q(r.table)} AS t WHERE ${cond})`)
            .run(...where.params);
        }
        deleted = this.db.prepare(`DELETE FROM ${q(r.table)} AS t WHERE ${cond}`).run(...where.params).changes;
      }
      this.touch(id, -deleted);
      return deleted;
    });
  }

  // -------------------------------------------------------------------------------- reads

  private compile(r: Internal, query: SearchQuery) {
    const where = new Where(r);
    for (const f of query.filters) where.filter(f);
    const fts = where.fullText(query.fts);
    // Best-first with only a full-text condition: rank a bounded set of candidates in the
    // index, then read just the page's rows (bm25 re-reads each candidate's text).
    const rankedFirst = query.sort.length > 0 && fts.ranks.get(query.sort[0].field)?.startsWith("bm25(");
    const candidates = rankedFirst && where.ftsJoin !== "" && where.parts.length === 0 && !query.distinct;
    let candidatesSql = "";
    if (candidates) {
      const ftsName = q(`${r.table}_fts`);
      const ranked = [...fts.ranks].filter(([, expr]) => expr.startsWith("bm25("));
      const cols = ranked.map(([, expr], i) => `${expr} AS _r${i}`).join(", ");
      fts.join = "";
      candidatesSql = `SELECT rowid AS _fid, ${cols} FROM ${ftsName} WHERE ${ftsName} MATCH ? LIMIT ${RANK_CANDIDATES}`;
      where.ftsJoin = `JOIN (${candidatesSql}) AS s ON s._fid = t._id`;
      ranked.forEach(([name], i) => fts.ranks.set(name, `s._r${i}`));
    }
    const select: string[] = [];
    const decoders: ((v: Stored) => unknown)[] = [];
    for (const name of query.columns) {
      const rank = fts.ranks.get(name);
      if (rank !== undefined) {
        select.push(rank);
        decoders.push((v) => bm25ToRank(v as number | null));
      } else {
        const f = this.column(r, name);
        select.push(`t.${q(f.column)}`);
        decoders.push(f === ID_FIELD ? (v) => v : (v) => fromStorage(f.type, v));
      }
    }
    const order: string[] = [];
    for (const s of query.sort) {
      const rank = fts.ranks.get(s.field);
      if (rank !== undefined) {
        order.push(`${rank} ${s.desc ? "ASC" : "DESC"}`); // raw bm25: lower is better
        continue;
      }
      const f = this.column(r, s.field);
      const col = `t.${q(f.column)}`;
      // SQLite sorts NULLs first ascending, PostgreSQL last. An explicit NULLS clause keeps
      // SQLite from reading an index in order, so it is left out when it changes nothing.
      const natural = s.nullsFirst === !s.desc;
      const nulls = natural || !this.mayHoldNulls(r, f) ? "" : ` NULLS ${s.nullsFirst ? "FIRST" : "LAST"}`;
      order.push(`${col} ${s.desc ? "DESC" : "ASC"}${nulls}`);
    }
    if (candidates && query.sort.every((c) => fts.ranks.get(c.field)?.startsWith("s._r"))) {
      // Ranks alone decide the order: sort the candidates by themselves and read only the
      // page's rows from the table, not every candidate's (q=Portland: 7.9 -> 7.4 ms a page).
      order.push("s._fid"); // equal ranks in _id order
      const page = `SELECT * FROM (${candidatesSql}) AS s ORDER BY ${order.join(", ")} LIMIT ? OFFSET ?`;
      const from = `(${page}) AS s JOIN ${q(r.table)} AS t ON t._id = s._fid`;
      // The page's own LIMIT and OFFSET bind after the MATCH; the outer query keeps them all.
      return { where, from, cond: where.sql(), params: [...where.params, query.limit, query.offset], select, decoders, order, offset: 0 };
    }
    const from = candidates ? `${q(r.table)} AS t ${where.ftsJoin}` : fts.join ? `${q(r.table)} AS t JOIN ${fts.join}` : `${q(r.table)} AS t`;
    // The page query may seek instead of skipping; counts use `where` as it stands.
    const seekFrom = this.denseOffsetStart(r, query, where);
    const cond = seekFrom === null ? where.sql() : `${where.sql()} AND t._id >= ?`;
    const params = seekFrom === null ? where.params : [...where.params, seekFrom];
    const offset = seekFrom === null ? query.offset : 0;
    return { where, from, cond, params, select, decoders, order, offset };
  }

  /** False when an index on the column proves it holds no NULL (a probe of microseconds). */
  private mayHoldNulls(r: Internal, f: StoredField): boolean {
    if (f === ID_FIELD) return false;
    const indexed = r.primaryKey[0] === f.id || r.indexes.some((ix) => ix[0] === f.id);
    if (!indexed) return true;
    return this.cached(`SELECT 1 FROM ${q(r.table)} WHERE ${q(f.column)} IS NULL LIMIT 1`).get() !== undefined;
  }

  /**
   * Deep pages in `_id` order without filters: when no row was ever deleted out of the middle
   * (`_id`s are dense), row N is `_id = min + N`, so OFFSET becomes an index seek.
   */
  private denseOffsetStart(r: Internal, query: SearchQuery, where: Where): number | null {
    const byId = query.sort.length === 1 && query.sort[0].field === "_id" && !query.sort[0].desc;
    if (query.offset === 0 || !byId || query.distinct || where.parts.length || where.ftsJoin) return null;
    // Two subqueries: SQLite answers a lone min() or max() from the b-tree's ends, not both at once.
    const { lo, hi } = this.cached(`SELECT (SELECT min(_id) FROM ${q(r.table)}) AS lo, (SELECT max(_id) FROM ${q(r.table)}) AS hi`)
      .get() as { lo: number | null; hi: number | null };
    if (lo === null || hi === null || hi - lo + 1 !== r.rowCount) return null;
    return lo + query.offset;
  }

  /** Reads run on the pool's workers when there is one, else on this connection. */
  async search(resource: Resource, query: SearchQuery): Promise<SearchOutput> {
    if (this.pool) return (await this.pool.run({ op: "search", resourceId: resource.id, query })) as SearchOutput;
    return this.searchNow(resource, query);
  }

  async valueCounts(resource: Resource, field: string, query: SearchQuery, limit: number): Promise<ValueCountsOutput> {
    if (this.pool) {
      return (await this.pool.run({ op: "valueCounts", resourceId: resource.id, query, field, limit })) as ValueCountsOutput;
    }
    return this.valueCountsNow(resource, field, query, limit);
  }

  searchNow(resource: Resource, query: SearchQuery): SearchOutput {
    const r = resource as Internal;
    let c;
    try {
      c = this.compile(r, query);
    } catch (e) {
      throw castError(e) ?? e;
    }
    const { where, params, select, decoders, offset } = c;
    const sql = pageSql(c, query.distinct);
    try {
      return this.within(config.queryTimeoutMs, () => {
        const stmt = this.cached(sql, "raw");
        let out: SearchOutput;
        if (query.encode) {
          // Row by row into JSON bytes: a 32,000-row page is never held as rows.
          const writer = new RecordsWriter(query.encode.format, query.encode.columns);
          for (const row of stmt.iterate(...params, query.limit, offset) as IterableIterator<Stored[]>) {
            writer.add(row.map((v, i) => decoders[i](v)));
          }
          out = { rows: [], records: writer.finish() };
        } else {
          const raw = stmt.all(...params, query.limit, offset) as Stored[][];
          out = { rows: raw.map((row) => row.map((v, i) => decoders[i](v))) };
        }
        if (query.includeTotal) {
          const { total, estimated } = this.count(r, where, query, select);
          out.total = total;
          out.totalEstimated = estimated;
        }
        return out;
      });
    } catch (e) {
      if (e instanceof DeadlineExceeded) throw tooLong();
      throw e;
    }
  }

  /**
   * The number of matching rows: the catalog's row count when nothing narrows the search,
   * an exact count when it fits the count budget, otherwise an estimate scaled up from the
   * first ESTIMATE_SAMPLE_ROWS rows (CKAN's `total_was_estimated`).
   */
  private count(r: Internal, where: Where, query: SearchQuery, select: string[]): { total: number; estimated: boolean } {
    const plan = this.countPlan(r, where, query, select);
    if ("rows" in plan) return { total: plan.rows, estimated: false };
    if (!plan.budgeted) return { total: this.cached(plan.sql, "pluck").get(...plan.params) as number, estimated: false };
    const countSql = (extra: string) => this.countSql(r, where, query, select, extra);
    try {
      const total = this.within(config.countBudgetMs, () => this.cached(plan.sql, "pluck").get(...plan.params) as number);
      return { total, estimated: false };
    } catch (e) {
      if (!(e instanceof DeadlineExceeded)) throw e;
    }
    const lastSampled = this.db
      .prepare(`SELECT _id FROM ${q(r.table)} ORDER BY _id LIMIT 1 OFFSET ?`)
      .pluck()
      .get(ESTIMATE_SAMPLE_ROWS - 1) as number | undefined;
    if (lastSampled === undefined) return { total: r.rowCount, estimated: true };
    const sampled = this.db.prepare(countSql(" AND t._id <= ?")).pluck().get(...where.params, lastSampled) as number;
    return { total: Math.round((sampled * r.rowCount) / ESTIMATE_SAMPLE_ROWS), estimated: true };
  }

  /** How a total is counted: the catalog's row count, or a statement, budgeted or not. */
  private countPlan(r: Internal, where: Where, query: SearchQuery, select: string[]): { rows: number } | { sql: string; params: unknown[]; budgeted: boolean } {
    if (!query.distinct && where.parts.length === 0 && !where.ftsJoin) return { rows: r.rowCount };
    if (!query.distinct && where.parts.length === 0 && where.ftsMatch !== null) {
      // Only full text: the index counts its own matches without touching the rows.
      const fts = q(`${r.table}_fts`);
      return { sql: `SELECT count(*) FROM ${fts} WHERE ${fts} MATCH ?`, params: [where.ftsMatch], budgeted: false };
    }
    const indexOnly = this.indexOnlyCount(r, where, query);
    if (indexOnly !== null) return { sql: indexOnly, params: where.params, budgeted: false };
    return { sql: this.countSql(r, where, query, select), params: where.params, budgeted: true };
  }

  /**
   * The count, when SQLite answers it from one index range alone (its plan says so) on a table
   * of at most INDEX_COUNT_MAX_ROWS rows: at ~25 ns an entry it ends well within the count
   * budget, so it runs without the per-row deadline check, which doubled its cost (origin=SEA's
   * 50,000 entries on the 3M-row bench: 2.4 ms with the check, 1.2 without). Else null.
   */
  private indexOnlyCount(r: Internal, where: Where, query: SearchQuery): string | null {
    if (query.distinct || where.ftsJoin || where.parts.length === 0 || r.rowCount > INDEX_COUNT_MAX_ROWS) return null;
    const sql = `SELECT count(*) FROM ${q(r.table)} AS t WHERE ${where.sql(false)}`;
    let covered = this.indexOnlyPlans.get(sql);
    if (covered === undefined) {
      const plan = this.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...where.params) as { detail: string }[];
      covered = plan.length > 0 && plan.every((step) => step.detail.startsWith("SEARCH t USING COVERING INDEX "));
      if (this.indexOnlyPlans.size >= STATEMENT_CACHE) this.indexOnlyPlans.clear();
      this.indexOnlyPlans.set(sql, covered);
    }
    return covered ? sql : null;
  }

  private countSql(r: Internal, where: Where, query: SearchQuery, select: string[], extra = ""): string {
    const cols = select.filter((s) => s.startsWith("t."));
    return query.distinct
      ? `SELECT count(*) FROM (SELECT DISTINCT ${cols.join(", ") || "1"} FROM ${q(r.table)} AS t ${where.ftsJoin} WHERE ${where.sql()}${extra})`
      : `SELECT count(*) FROM ${q(r.table)} AS t ${where.ftsJoin} WHERE ${where.sql()}${extra}`;
  }

  /** The statements an exact search runs (page, then count if needed): the benchmark's floor. */
  searchStatements(resource: Resource, query: SearchQuery): { sql: string; params: unknown[] }[] {
    const r = resource as Internal;
    const c = this.compile(r, query);
    const out = [{ sql: pageSql(c, query.distinct), params: [...c.params, query.limit, c.offset] }];
    const plan = this.countPlan(r, c.where, query, c.select);
    if (query.includeTotal && !("rows" in plan)) out.push({ sql: plan.sql, params: plan.params });
    return out;
  }

  *iterate(resource: Resource, query: SearchQuery): IterableIterator<unknown[]> {
    const r = resource as Internal;
    const c = this.compile(r, query);
    const { params, decoders, offset } = c;
    const sql = pageSql(c, query.distinct);
    // A private read-only connection: one consistent snapshot for the whole stream, and the
    // shared connection stays free for other requests between chunks.
    const reader = new Database(this.db.name, { readonly: true, fileMustExist: true });
    reader.function("ds_deadline", () => 1); // dumps stream for as long as they take
    try {
      const limit = query.limit < 0 ? -1 : query.limit;
      const it = reader.prepare(sql).raw(true).iterate(...params, limit, offset) as IterableIterator<Stored[]>;
      for (const row of it) yield row.map((v, i) => decoders[i](v));
    } finally {
      reader.close();
    }
  }

  valueCountsNow(resource: Resource, field: string, query: SearchQuery, limit: number): ValueCountsOutput {
    const r = resource as Internal;
    const f = this.column(r, field);
    let where: Where;
    try {
      where = new Where(r);
      for (const flt of query.filters) where.filter(flt);
      where.fullText(query.fts);
    } catch (e) {
      throw castError(e) ?? e;
    }
    const col = `t.${q(f.column)}`;
    // The sample reads a range of rows by _id; NOT INDEXED stops SQLite from walking a whole
    // index instead (it would, to group by the indexed column).
    const countSql = (extra: string, hint = "") =>
      `SELECT ${col} AS v, count(*) AS n FROM ${q(r.table)} AS t${hint} ${where.ftsJoin}
       WHERE ${where.sql()} AND ${col} IS NOT NULL${extra} GROUP BY v ORDER BY n DESC, v LIMIT ?`;
    const decode = (rows: [Stored, number][]) => rows.map(([v, n]) => ({ value: f === ID_FIELD ? v : fromStorage(f.type, v), count: n }));
    // Counting a whole big table cannot fit the budget (3M rows: over 120 ms even through an
    // index), so unnarrowed counts there go straight to the first rows.
    const hopeless = query.filters.length === 0 && query.fts.length === 0 && r.rowCount > 5 * VALUE_COUNT_ROW_BUDGET;
    if (!hopeless) {
      try {
        const rows = this.within(VALUE_COUNT_BUDGET_MS, () => this.cached(countSql(""), "raw").all(...where.params, limit) as [Stored, number][]);
        return { values: decode(rows), partial: false };
      } catch (e) {
        if (!(e instanceof DeadlineExceeded)) throw e;
      }
    }
    // Past the budget: exact counts over the first VALUE_COUNT_ROW_BUDGET rows of the table.
    const last = this.db
      .prepare(`SELECT _id FROM ${q(r.table)} ORDER BY _id LIMIT 1 OFFSET ?`)
      .pluck()
      .get(VALUE_COUNT_ROW_BUDGET - 1) as number | undefined;
    try {
      const rows = this.within(config.queryTimeoutMs, () =>
        this.db.prepare(countSql(last === undefined ? "" : " AND t._id <= ?", " NOT INDEXED")).raw(true).all(...where.params, ...(last === undefined ? [] : [last]), limit) as [Stored, number][],
      );
      return { values: decode(rows), partial: true };
    } catch (e) {
      if (e instanceof DeadlineExceeded) throw tooLong();
      throw e;
    }
  }

  fieldStats(id: string, sampleRows: number): FieldStats[] {
    const r = this.mustGet(id);
    const fields = [...r.columns.values()];
    if (fields.length === 0) return [];
    const exprs = fields.map((f) => `count(DISTINCT ${q(f.column)}), avg(length(${q(f.column)}))`).join(", ");
    const row = this.db
      .prepare(`SELECT ${exprs} FROM (SELECT * FROM ${q(r.table)} ORDER BY _id LIMIT ?)`)
      .raw(true)
      .get(sampleRows) as (number | null)[];
    return fields.map((f, i) => ({ id: f.id, distinct: row[2 * i] ?? 0, avgLength: row[2 * i + 1] ?? 0 }));
  }

  /** On a read worker when there is a pool: dbstat reads every page of the resource's tables
   *  and indexes (0.4 s on 3M rows), which would hold up every other request here. */
  async stats(resource: Resource): Promise<ResourceStats> {
    if (this.pool) return (await this.pool.run({ op: "stats", resourceId: resource.id })) as ResourceStats;
    return this.statsNow(resource);
  }

  /** Sizes, kept until the resource or the file changes (its catalog row, or the page count). */
  statsNow(resource: Resource): ResourceStats {
    const r = resource as Internal;
    const pageSize = this.db.pragma("page_size", { simple: true }) as number;
    const pageCount = this.db.pragma("page_count", { simple: true }) as number;
    const key = JSON.stringify([r.table, r.modified, r.rowCount, r.indexes, pageCount]);
    const known = this.sizes.get(r.id);
    if (known?.key === key) return known.stats;
    const sizeOf = (names: string[]): number =>
      names.reduce((sum, name) => sum + ((this.cached("SELECT pgsize FROM dbstat WHERE name = ? AND aggregate = 1", "pluck").get(name) as number) ?? 0), 0);
    const objects = this.db
      .prepare("SELECT name, type FROM sqlite_schema WHERE tbl_name = ? OR tbl_name LIKE ?")
      .all(r.table, `${r.table}_fts%`) as { name: string; type: string }[];
    const tables = objects.filter((o) => o.type === "table" && !o.name.startsWith(`${r.table}_fts`)).map((o) => o.name);
    const others = objects.filter((o) => !tables.includes(o.name) && o.name !== `${r.table}_fts`).map((o) => o.name);
    const stats = { size: sizeOf(tables), idxSize: sizeOf(others), dbSize: pageSize * pageCount };
    this.sizes.set(r.id, { key, stats });
    return stats;
  }
}

function pageSql(c: { select: string[]; from: string; cond: string; order: string[] }, distinct: boolean): string {
  return (
    `SELECT ${distinct ? "DISTINCT " : ""}${c.select.join(", ")} FROM ${c.from} WHERE ${c.cond}` +
    (c.order.length ? ` ORDER BY ${c.order.join(", ")}` : "") +
    " LIMIT ? OFFSET ?"
  );
}

/** The rank of rows no positive term matched. A real, not an integer: SQLite reads
 *  `ORDER BY 0` as a column number. */
const NO_RANK = "0.0";
/** Matches ranked for best-first order; past this many, the first ones (by _id) are ranked.
 *  bm25() costs about 5 µs a match after a fixed 2.5 ms (measured on 3M rows, q=Portland):
 *  2,000 candidates took 12.7 ms a page, 1,000 took 7.5 ms. */
const RANK_CANDIDATES = 1_000;

/** Builds a WHERE clause over `t` (the resource table) with bound parameters. */
class Where {
  parts: string[] = [];
  params: unknown[] = [];
  ftsJoin = "";
  /** The positive full-text expression (the first parameter when there is one). */
  ftsMatch: string | null = null;
  constructor(private r: Internal) {}

  private col(fieldId: string): StoredField {
    if (fieldId === "_id") return ID_FIELD;
    const f = this.r.columns.get(fieldId);
    if (!f) throw DatastoreError.field("filters", `field "${fieldId}" not in table`);
    return f;
  }

  filter(f: Filter): void {
    const field = this.col(f.field);
    const values: Stored[] = [];
    for (const v of f.values) {
      // A filter compares `= NULL`, which matches nothing (CKAN 2.11).
      if (v === null) continue;
      const stored = field === ID_FIELD ? toStorage("int8", v) : filterValue(field.type, v);
      if (stored !== null) values.push(stored);
    }
    if (values.length === 0) {
      this.parts.push("0");
      return;
    }
    const col = `t.${q(field.column)}`;
    this.parts.push(values.length === 1 ? `${col} = ?` : `${col} IN (${values.map(() => "?").join(", ")})`);
    this.params.push(...values);
  }

  /** Adds the full-text conditions; returns the rank expressions by column name. */
  fullText(conds: FtsCondition[]): { join: string; ranks: Map<string, string> } {
    const ranks = new Map<string, string>();
    if (conds.length === 0) return { join: "", ranks };
    const fts = `${this.r.table}_fts`;
    const fields = [...this.r.columns.values()];
    const positive: string[] = [];
    const positiveConds: FtsCondition[] = [];
    for (const c of conds) {
      if (c.tree === null || fields.length === 0) {
        this.parts.push("0");
        ranks.set(c.rank, NO_RANK);
        continue;
      }
      const compiled = compileFts(c.tree);
      const scoped = c.field === null ? compiled.expr : `${q(this.col(c.field).column)} : (${compiled.expr})`;
      if (compiled.negated) {
        this.parts.push(`t._id NOT IN (SELECT rowid FROM ${q(fts)} WHERE ${q(fts)} MATCH ?)`);
        this.params.push(scoped);
        ranks.set(c.rank, NO_RANK);
      } else {
        positive.push(`(${scoped})`);
        positiveConds.push(c);
      }
    }
    if (positive.length === 0) return { join: "", ranks };
    // The MATCH goes first in the parameter list: it sits in the JOIN, before the WHERE.
    this.ftsJoin = `JOIN ${q(fts)} ON ${q(fts)}.rowid = t._id AND ${q(fts)} MATCH ?`;
    this.ftsMatch = positive.join(" AND ");
    this.params.unshift(this.ftsMatch);
    for (const c of positiveConds) {
      // One weight per column isolates the field; bm25() takes at most 1000 arguments, so the
      // widest tables rank a field's matches over the whole row instead.
      const weights = c.field === null || fields.length >= 1000 ? "" : fields.map((f) => (f.id === c.field ? ", 1.0" : ", 0.0")).join("");
      ranks.set(c.rank, `bm25(${q(fts)}${weights})`);
    }
    return { join: this.ftsJoin.slice("JOIN ".length), ranks };
  }

  /**
   * The condition, with a deadline check on about one row in 251 visited (see `within`);
   * a prime, so that no regular pattern in the rows a filter keeps can skip every check.
   */
  sql(deadline = true): string {
    return deadline ? allOf([...this.parts, "(t._id % 251 != 0 OR ds_deadline())"]) : allOf(this.parts);
  }
}

/** ANDs conditions as a balanced tree, in order: SQLite refuses expressions over 1000 deep,
 *  which a plain chain of one condition per filter (or key column) would reach. */
function allOf(parts: string[]): string {
  if (parts.length <= 8) return parts.join(" AND ");
  const mid = parts.length >> 1;
  return `(${allOf(parts.slice(0, mid))}) AND (${allOf(parts.slice(mid))})`;
}

/** Casts a filter value for comparison with a column (CKAN stringifies values for text). */
function filterValue(t: TypeName, v: unknown): Stored {
  if (t === "text") return typeof v === "string" ? v : typeof v === "object" ? JSON.stringify(v) : String(v);
  if (t === "json") return JSON.stringify(v);
  if (isArrayType(t) && !Array.isArray(v)) throw new CastError(`malformed array literal: "${str(v)}"`);
  return toStorage(t, v);
}

/** Writes one record at a time with prepared statements; keeps the FTS table in step. */
class RowWriter {
  private fields: StoredField[];
  private fts: string;
  private stmts = new Map<string, Database.Statement>();

  constructor(
    private db: DB,
    private r: Internal,
  ) {
    this.fields = [...r.columns.values()];
    this.fts = `${r.table}_fts`;
  }

  private stmt(key: string, sql: () => string): Database.Statement {
    let s = this.stmts.get(key);
    if (!s) this.stmts.set(key, (s = this.db.prepare(sql())));
    return s;
  }

  private cast(record: Record<string, unknown>, f: StoredField): Stored {
    return toStorage(f.type, record[f.id]);
  }

  /** Indexes the row as stored (see ftsOptions: the index must match the table exactly). */
  private indexRow(id: number | bigint): void {
    if (this.fields.length === 0) return;
    const cols = this.fields.map((f) => q(f.column)).join(", ");
    this.stmt("fts-insert", () => `INSERT INTO ${q(this.fts)} (rowid, ${cols}) SELECT _id, ${cols} FROM ${q(ftsSource(this.r.table))} WHERE _id = ?`).run(id);
  }

  /** Must run while the row still holds the values it was indexed with. */
  private unindexRow(id: number | bigint): void {
    if (this.fields.length === 0) return;
    this.stmt("fts-delete", () => `DELETE FROM ${q(this.fts)} WHERE rowid = ?`).run(id);
  }

  private extraKeys(record: Record<string, unknown>, row: number): void {
    const extra = Object.keys(record).filter((k) => k !== "_id" && !this.r.columns.has(k));
    if (extra.length) {
      throw DatastoreError.validation({ records: [`row "${row + 1}" has extra keys "${extra.join('", "')}"`] });
    }
  }

  insert(record: Record<string, unknown>): void {
    const values = this.fields.map((f) => this.cast(record, f));
    const cols = this.fields.map((f) => q(f.column));
    const sql = cols.length
      ? `INSERT INTO ${q(this.r.table)} (${cols.join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`
      : `INSERT INTO ${q(this.r.table)} DEFAULT VALUES`;
    const id = this.stmt("insert", () => sql).run(...values).lastInsertRowid;
    this.indexRow(id);
  }

  /** Returns the number of rows added (0 for an update). */
  write(record: Record<string, unknown>, method: WriteMethod, row: number): number {
    if (record === null || typeof record !== "object" || Array.isArray(record)) {
      throw DatastoreError.validation({ records: [`row "${row + 1}" is not a JSON object`] });
    }
    if (method === "insert") {
      this.extraKeys(record, row);
      this.insert(record);
      return 1;
    }
    const unknown = Object.keys(record).filter((k) => k !== "_id" && !this.r.columns.has(k));
    if (unknown.length) throw DatastoreError.field("fields", `fields "${unknown.join('", "')}" do not exist`);
    const id = this.findKey(record);
    if (id === undefined) {
      if (method === "update") throw DatastoreError.field("key", `key "${this.keyText(record)}" not found`);
      this.insert(record);
      return 1;
    }
    const present = this.fields.filter((f) => f.id in record);
    if (present.length) {
      const key = `update:${present.map((f) => f.column).join(",")}`;
      const values = present.map((f) => this.cast(record, f));
      this.unindexRow(id);
      this.stmt(key, () => `UPDATE ${q(this.r.table)} SET ${present.map((f) => `${q(f.column)} = ?`).join(", ")} WHERE _id = ?`).run(
        ...values,
        id,
      );
      this.indexRow(id);
    }
    return 0;
  }

  private keyText(record: Record<string, unknown>): string {
    if (record._id !== undefined) return str(record._id);
    return this.r.primaryKey.map((k) => str(record[k])).join(", ");
  }

  private findKey(record: Record<string, unknown>): number | undefined {
    if (record._id !== undefined && record._id !== null) {
      const id = toStorage("int8", record._id);
      return this.stmt("find-id", () => `SELECT _id FROM ${q(this.r.table)} WHERE _id = ?`).pluck().get(id) as number | undefined;
    }
    const pk = this.r.primaryKey;
    if (pk.length === 0) throw DatastoreError.field("table", "unique key must be passed for update/upsert");
    const missing = pk.filter((k) => !(k in record));
    if (missing.length) {
      throw DatastoreError.field("key", `fields "${missing.join('", "')}" are missing but needed as key`);
    }
    const cols = pk.map((k) => this.r.columns.get(k)!);
    return this.stmt("find-pk", () => `SELECT _id FROM ${q(this.r.table)} WHERE ${allOf(cols.map((c) => `${q(c.column)} IS ?`))}`)
      .pluck()
      .get(...cols.map((c) => this.cast(record, c))) as number | undefined;
  }
}
