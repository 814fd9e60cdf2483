// The SQLite engine: DatastoreEngine over one writer connection (behind a write lock), a pool of
// read workers for searches, and a private reader per dump. Each part of the work lives in its
// own file (catalog, schema, fts-index, row-writer, where, read-plan, count, search,
// value-counts, histogram, statistics, tokens); this file sequences them and maps SQLite's
// failures to the datastore's errors (errors.ts).
import { column } from "../catalog-row";
import Database from "better-sqlite3";
import fs from "node:fs";
import path from "node:path";
import type { AggregateOutput, AggregateSpec, AuditStorage, BulkLoad, DatastoreEngine, Field, FieldStats, Filter, HistogramOutput, NewResource, Resource, ResourceStats, SearchOutput, SearchQuery, StartupCheck, SummaryOptions, SummaryOutput, TokenStorage, ViewStorage, ValueCountsOutput, WriteMethod, WriteAuthor, HistoryState, HistorySize, VersionEntry, RowImage, ChangesPage } from "../engine";
import { exactOutput, mergeable, mergeParts } from "../aggregate-groups";
import { exactSummary, mergeTallies, type Tallied } from "../summary-plan";
import { aggregate, sharedClaims } from "./aggregate";
import { DatastoreError, DatastoreUnavailable } from "../errors";
import type { ReadLimits } from "../read-limits";
import { resolvedNow, stillFresh, wrote } from "../resolved";
import { DEFAULT_LANGUAGE } from "../text-language";
import { BulkLoader, bulkLoadHandle } from "./bulk-load";
import * as catalog from "./catalog";
import * as catalogSearch from "./catalog-search";
import type { CatalogPage, CatalogQuery } from "../catalog-search";
import type { Internal } from "./catalog";
import { openReader, openWriter, type Conn } from "./connection";
import { toDatastoreError } from "./errors";
import { checkDatabase, explainOpenError, scanPages } from "./health";
import { histogram } from "./histogram";
import type { LearnEvent, LearnSettings } from "../index-learning-rule";
import { SqliteIndexLearner } from "./index-learning";
import * as learned from "./learned-indexes";
import { ReadPool, defaultExpensiveReads, defaultReadWorkers } from "./read-pool";
import * as schema from "./schema";
import { inIdOrder } from "./read-plan";
import { keysetChunks, search, searchChunks, searchStatements } from "./search";
import { searchOnPool } from "./search-apart";
import { fieldStats, sizes } from "./statistics";
import { summary } from "./summary";
import { sqliteAudit } from "./audit";
import { sqliteTokens } from "./tokens";
import { sqliteViews } from "./views";
import { valueCounts } from "./value-counts";
import { deleteRows, writeRecords } from "./row-writer";
import * as groups from "./groups";
import { closedCleanly, repairAfterCrash } from "./group-repair";
import * as history from "./history";
import { WriteLock } from "./write-lock";

/** Rows a dump's reader hands over at a time. */
const DUMP_CHUNK_ROWS = 1000;
/** Rows from which an exact aggregate or summary is read in parts on several read workers. */
const SPLIT_ROWS = 100_000;

export interface SqliteOptions {
  file: string;
  /** Read worker threads; 0 runs reads on the writer connection. Default: one per core (at least two), plus one for cheap reads. */
  readWorkers?: number;
  /** Reads judged expensive that may run at once (read-cost.ts). Default: all workers but one. */
  expensiveReads?: number;
  limits: ReadLimits;
  learning: LearnSettings;
  /** Bytes of search answers kept per state of a resource (../page-cache.ts); 0 keeps none. */
  pageCacheBytes?: number;
}

export async function openSqliteEngine(options: SqliteOptions): Promise<SqliteEngine> {
  let c: Conn;
  try {
    c = openWriter(options.file, options.limits);
  } catch (e) {
    throw new DatastoreUnavailable(explainOpenError(e, options.file));
  }
  const workers = options.readWorkers ?? defaultReadWorkers();
  const pool = workers > 0 ? new ReadPool(options.file, workers, options.expensiveReads ?? defaultExpensiveReads(workers), options.limits, options.pageCacheBytes) : undefined;
  catalogSearch.fillWords(c);
  try {
    repairAfterCrash(c); // before any read: the catalog as its groups' rows have it (groups.ts)
  } catch (e) {
    c.db.close();
    throw new DatastoreUnavailable(explainOpenError(e, options.file));
  }
  const lock = new WriteLock();
  const learner = options.file === ":memory:" ? undefined : new SqliteIndexLearner(options.file, lock, options.learning);
  return new SqliteEngine(c, options.file, pool, lock, options.learning, null, learner);
}

function mapped(e: unknown): unknown {
  return toDatastoreError(e);
}

/**
 * Undoes what a failed transaction or savepoint wrote. SQLite may have rolled the whole
 * transaction back already (a full disk, an I/O error): then there is nothing to undo, and the
 * error that caused it is the one to report, not the rollback's own.
 */
function rollBack(db: Conn["db"], ...statements: string[]): void {
  try {
    if (db.inTransaction) for (const sql of statements) db.exec(sql);
  } catch (e) {
    console.error("datastore: rollback failed", e);
    if (db.inTransaction) db.exec("ROLLBACK");
  }
}

export class SqliteEngine implements DatastoreEngine {
  readonly tokens: TokenStorage;
  readonly views: ViewStorage;
  readonly audit: AuditStorage;
  /** Index learning (index-learning.ts), unless its settings turn it off. */
  get learnsIndexes(): boolean {
    return this.learning.adaptiveIndexes;
  }

  constructor(
    private readonly c: Conn,
    private readonly file: string,
    private readonly pool: ReadPool | undefined,
    private readonly lock: WriteLock,
    private readonly learning: LearnSettings,
    /** The transaction this engine belongs to (its handle inside `transaction`), or null. */
    private readonly tx: { nested: WriteLock; depth: number } | null,
    /** Learns indexes from this engine's reads (not a transaction's). */
    private readonly learner?: SqliteIndexLearner,
    /** Whose reads these are (a token id or an address): expensive ones take turns per client. */
    private readonly client = "",
    /** Whose writes these are, as history records them. */
    private readonly author?: WriteAuthor,
  ) {
    this.tokens = sqliteTokens(c, (fn) => this.writing(fn), () => this.learner?.building === true);
    this.views = sqliteViews(c, (fn) => this.writing(fn), (fn) => this.reading(fn));
    this.audit = sqliteAudit(c, (fn) => this.writing(fn), (fn) => this.reading(fn));
  }

  /** Runs a read of the writer connection: at once inside a transaction, else between writes
   *  (a learned index's build holds the lock but works on a connection of its own). */
  private async reading<T>(fn: () => T): Promise<T> {
    try {
      if (this.tx || !this.lock.held || this.learner?.building) return fn();
      return await this.lock.run(fn);
    } catch (e) {
      throw mapped(e);
    }
  }

  /** Runs a write atomically (a savepoint inside a transaction), under the write lock. The
   *  catalog rows it changed are copied to their groups before it commits (groups.ts); a group
   *  it needs and lacks is attached and the write run again from the start (outside a
   *  transaction: inside one, `transaction` was given the resources). */
  private async writing<T>(fn: () => T): Promise<T> {
    const once = () => {
      wrote(); // a copy of a resource getResource answered before is looked up again (../resolved.ts)
      return this.c.db.transaction(() => {
        const out = fn();
        groups.syncStates(this.c);
        return out;
      })();
    };
    const atomic = () => {
      for (let attempt = 0; ; attempt++) {
        try {
          return once();
        } catch (e) {
          if (!(e instanceof groups.GroupNotAttached) || this.tx || attempt >= groups.ATTACHED_GROUPS) throw e;
          groups.use(this.c, e.group);
        }
      }
    };
    try {
      return this.tx ? atomic() : await this.lock.run(atomic);
    } catch (e) {
      throw mapped(e);
    }
  }

  /** `resourceIds` (../engine.ts): their groups are attached before it begins (groups.ts
   *  attachFor), alone, leaving room for a bulk load's parts. */
  async transaction<T>(fn: (tx: DatastoreEngine) => Promise<T>, resourceIds?: readonly string[]): Promise<T> {
    if (this.tx) return this.tx.nested.run(() => this.savepoint(fn));
    return this.lock.run(async () => {
      const db = this.c.db;
      try {
        if (resourceIds) groups.attachFor(this.c, resourceIds, true);
        db.exec("BEGIN IMMEDIATE");
      } catch (e) {
        groups.endWrite(this.c);
        throw mapped(e);
      }
      try {
        const result = await fn(new SqliteEngine(this.c, this.file, this.pool, this.lock, this.learning, { nested: new WriteLock(), depth: 0 }, undefined, this.client, this.author));
        groups.syncStates(this.c);
        db.exec("COMMIT");
        wrote();
        return result;
      } catch (e) {
        rollBack(db, "ROLLBACK");
        throw mapped(e);
      } finally {
        groups.endWrite(this.c);
      }
    });
  }

  forClient(client: string, author: WriteAuthor | undefined = this.author): DatastoreEngine {
    return new SqliteEngine(this.c, this.file, this.pool, this.lock, this.learning, this.tx, this.learner, client, author);
  }

  /** A nested transaction: a savepoint, one at a time per transaction (names are by depth). */
  private async savepoint<T>(fn: (tx: DatastoreEngine) => Promise<T>): Promise<T> {
    const tx = this.tx!;
    const name = `sp${++tx.depth}`;
    try {
      this.c.db.exec(`SAVEPOINT ${name}`);
      const result = await fn(this);
      this.c.db.exec(`RELEASE ${name}`);
      return result;
    } catch (e) {
      rollBack(this.c.db, `ROLLBACK TO ${name}`, `RELEASE ${name}`);
      throw mapped(e);
    } finally {
      tx.depth--;
    }
  }

  // ----------------------------------------------------------------------------- catalog

  getResource(idOrAlias: string): Promise<Resource | undefined> {
    return this.reading(() => (this.tx ? catalog.findResource(this.c, idOrAlias) : resolvedNow(catalog.findResourceKept(this.c, idOrAlias))));
  }

  listResources(): Promise<Resource[]> {
    return this.reading(() => catalog.listResources(this.c));
  }

  searchResources(query: CatalogQuery): Promise<CatalogPage> {
    return this.reading(() => catalogSearch.searchCatalog(this.c, query));
  }

  nameOwner(name: string): Promise<string | undefined> {
    return this.reading(() => catalog.nameOwner(this.c, name));
  }

  // ------------------------------------------------------------------------------ schema

  createResource(meta: NewResource, fields: Field[]): Promise<Resource> {
    return this.writing(() => {
      const r = schema.createResource(this.c, meta, fields);
      catalogSearch.syncWords(this.c, r.id);
      return r;
    });
  }

  updateResourceMeta(id: string, meta: Partial<Omit<NewResource, "id">>): Promise<void> {
    return this.writing(() => {
      schema.updateResourceMeta(this.c, id, meta);
      catalogSearch.syncWords(this.c, id);
    });
  }

  setLanguage(id: string, language: string): Promise<void> {
    return this.writing(() => schema.setLanguage(this.c, id, language));
  }

  alterFields(id: string, add: Field[], infoUpdates: Field[], drop: string[]): Promise<void> {
    return this.writing(() => {
      learned.dropOnFields(this.c, id, drop);
      schema.alterFields(this.c, id, add, infoUpdates, drop, this.author);
      catalogSearch.syncWords(this.c, id);
    });
  }

  setPrimaryKey(id: string, fields: string[]): Promise<void> {
    return this.writing(() => {
      schema.setPrimaryKey(this.c, id, fields);
      learned.dropCovered(this.c, id);
    });
  }

  setIndexes(id: string, indexes: string[][], atImport: string[][] = []): Promise<void> {
    return this.writing(() => {
      schema.setIndexes(this.c, id, indexes);
      learned.recordImportPicks(this.c, id, atImport);
      learned.dropCovered(this.c, id);
    });
  }

  setAliases(id: string, aliases: string[]): Promise<void> {
    return this.writing(() => {
      schema.setAliases(this.c, id, aliases);
      catalogSearch.syncWords(this.c, id);
    });
  }

  dropTable(id: string): Promise<void> {
    return this.writing(() => {
      schema.dropTable(this.c, id);
      learned.forget(this.c, id);
      catalogSearch.syncWords(this.c, id);
    });
  }

  deleteResource(id: string): Promise<void> {
    return this.writing(() => {
      const r = catalog.findResource(this.c, id);
      if (!r || r.id !== id) throw DatastoreError.notFound(`Resource "${id}" was not found.`);
      if (r.active) schema.dropTable(this.c, id);
      catalog.removeResource(this.c, id);
      this.c.db.prepare("DELETE FROM datastore_versions WHERE resource_id = ?").run(id);
    });
  }

  // ------------------------------------------------------------------------------- writes

  write(id: string, records: Record<string, unknown>[], method: WriteMethod): Promise<void> {
    return this.writing(() => writeRecords(this.c, id, records, method, this.author));
  }

  deleteRows(id: string, filters: Filter[]): Promise<number> {
    return this.writing(() => deleteRows(this.c, id, filters, this.author));
  }

  async bulkLoad(id: string, fields: string[]): Promise<BulkLoad> {
    const loader = await this.reading(() => {
      const r = catalog.mustGet(this.c, id);
      const targets = fields.map((f) => {
        if (f === "_id") throw DatastoreError.field("fields", `field "_id" cannot be loaded`);
        return column(r, f);
      });
      // One version for the whole load, without row images (history.ts).
      return new BulkLoader(this.c, r.table, groups.schemaOf(r), r.language ?? DEFAULT_LANGUAGE, [...r.columns.values()], targets, (added) => {
        catalog.touch(this.c, id, added);
        history.logVersion(this.c, r, "import", this.author);
      });
    });
    return bulkLoadHandle(loader);
  }

  fieldStats(id: string, sampleRows: number): Promise<FieldStats[]> {
    return this.reading(() => fieldStats(this.c, catalog.mustGet(this.c, id), sampleRows));
  }

  // -------------------------------------------------------------------------------- reads

  /** The resource as this connection sees it (callers may hold an older copy): outside a
   *  transaction, the copy getResource just answered for this request (../resolved.ts). */
  private current(resource: Resource, query?: SearchQuery): Internal {
    const r = (this.tx ? undefined : stillFresh(resource as Internal)) ?? catalog.mustGet(this.c, resource.id);
    groups.use(this.c, r.group);
    return query ? history.atVersion(this.c, r, query) : r;
  }

  /** Times a read (outside transactions) for the index learner: index-learning.ts. */
  private async observed<T>(resource: Resource, query: SearchQuery, sorted: boolean, read: () => Promise<T>): Promise<T> {
    if (!this.learner) return read();
    const started = performance.now();
    try {
      return await read();
    } finally {
      this.learner.observe(resource, query, performance.now() - started, sorted);
    }
  }

  search(resource: Resource, query: SearchQuery): Promise<SearchOutput> {
    return this.observed(resource, query, true, () => this.searchNow(resource, query));
  }

  valueCounts(resource: Resource, field: string, query: SearchQuery, limit: number, budgetMs: number | null = null): Promise<ValueCountsOutput> {
    return this.observed(resource, query, false, () => this.valueCountsNow(resource, field, query, limit, budgetMs));
  }

  histogram(resource: Resource, field: string, query: SearchQuery, bins: number, budgetMs: number | null = null): Promise<HistogramOutput> {
    return this.observed(resource, query, false, () => this.histogramNow(resource, field, query, bins, budgetMs));
  }

  summary(resource: Resource, query: SearchQuery, options: SummaryOptions): Promise<SummaryOutput> {
    return this.observed(resource, query, false, () => this.summaryNow(resource, query, options));
  }

  aggregate(resource: Resource, query: SearchQuery, spec: AggregateSpec): Promise<AggregateOutput> {
    return this.observed(resource, query, false, () => this.aggregateNow(resource, query, spec));
  }

  /** Reads run on the pool's workers when there is one (outside a transaction), else here. */
  private async searchNow(resource: Resource, query: SearchQuery): Promise<SearchOutput> {
    if (this.pool && !this.tx) {
      // Only for the copy this request just looked up: an older one's state may be past.
      const fresh = stillFresh(resource as Internal);
      const kept = fresh && this.pool.pages.get(catalog.state(fresh), query);
      if (kept) return kept;
      const out = await searchOnPool(this.pool, resource.id, query, this.client, fresh ? catalog.state(fresh) : undefined);
      if (out.readAt !== undefined) this.pool.pages.keep(out.readAt, query, out);
      return out;
    }
    return this.reading(() => search(this.c, this.current(resource, query), query, !this.tx));
  }

  private async valueCountsNow(resource: Resource, field: string, query: SearchQuery, limit: number, budgetMs: number | null): Promise<ValueCountsOutput> {
    if (this.pool && !this.tx) {
      return (await this.pool.run({ op: "valueCounts", resourceId: resource.id, query, field, limit, budgetMs }, this.client)) as ValueCountsOutput;
    }
    return this.reading(() => valueCounts(this.c, this.current(resource, query), field, query, limit, budgetMs));
  }

  private async histogramNow(resource: Resource, field: string, query: SearchQuery, bins: number, budgetMs: number | null): Promise<HistogramOutput> {
    if (this.pool && !this.tx) {
      return (await this.pool.run({ op: "histogram", resourceId: resource.id, query, field, bins, budgetMs }, this.client)) as HistogramOutput;
    }
    return this.reading(() => histogram(this.c, this.current(resource, query), field, query, bins, budgetMs));
  }

  /** An exact summary of a big table is tallied in parts on several read workers, as an exact
   *  aggregate is (aggregateNow), then added up. */
  private async summaryNow(resource: Resource, query: SearchQuery, options: SummaryOptions): Promise<SummaryOutput> {
    if (!this.pool || this.tx) return this.reading(() => summary(this.c, this.current(resource, query), query, options));
    const of = this.pool.expensiveLimit;
    if (of > 1 && (options.budgetMs ?? null) === null && resource.rowCount >= SPLIT_ROWS) {
      const parts = (await Promise.all(
        Array.from({ length: of }, (_, index) => this.pool!.run({ op: "summary", resourceId: resource.id, query, options, part: { index, of } }, this.client)),
      )) as { tallied: Tallied; readAt: string }[];
      if (parts.every((p) => p.readAt === parts[0].readAt)) {
        const types = options.fields.map((id) => column(this.current(resource), id).type);
        return exactSummary(options.fields, options, mergeTallies(parts.map((p) => p.tallied), types));
      }
    }
    return (await this.pool.run({ op: "summary", resourceId: resource.id, query, options }, this.client)) as SummaryOutput;
  }

  /** An exact aggregate of a big table is grouped in parts on as many read workers as
   *  expensive reads may run at once, side by side, each reading its share of the table's
   *  `_id`s and then what is left of the others' (shared counters: aggregate.ts), then
   *  merged; parts read in different states (a write came between) give way to one read. */
  private async aggregateNow(resource: Resource, query: SearchQuery, spec: AggregateSpec): Promise<AggregateOutput> {
    if (!this.pool || this.tx) return this.reading(() => aggregate(this.c, this.current(resource, query), query, spec));
    const of = this.pool.expensiveLimit;
    if (of > 1 && spec.budgetMs === null && mergeable(spec) && resource.rowCount >= SPLIT_ROWS) {
      const claims = sharedClaims(of);
      const parts = (await Promise.all(
        Array.from({ length: of }, (_, index) => this.pool!.run({ op: "aggregate", resourceId: resource.id, query, spec, part: { index, of, claims } }, this.client)),
      )) as { groups: unknown[]; readAt: string }[];
      if (parts.every((p) => p.readAt === parts[0].readAt)) return exactOutput(mergeParts(parts.map((p) => p.groups), spec), spec);
    }
    return (await this.pool.run({ op: "aggregate", resourceId: resource.id, query, spec }, this.client)) as AggregateOutput;
  }

  /** On a read worker when there is a pool: sizes read every page of the resource. */
  async stats(resource: Resource): Promise<ResourceStats> {
    if (this.pool && !this.tx) return (await this.pool.run({ op: "stats", resourceId: resource.id }, this.client)) as ResourceStats;
    return this.reading(() => sizes(this.c, this.current(resource)));
  }

  /** In `_id` order with a pool, each chunk is a keyset search on it, scheduled as any read.
   *  Else a private read-only connection per stream, so the writer stays free for other
   *  requests between chunks: by keyset, a short read per chunk, in `_id` order; in any other
   *  order from one statement over one snapshot. */
  async *iterate(resource: Resource, query: SearchQuery): AsyncIterableIterator<unknown[][]> {
    if (this.pool && !this.tx && inIdOrder(query)) {
      yield* this.pool.keysetChunks(resource.id, query, DUMP_CHUNK_ROWS, this.client);
      return;
    }
    let reader: Conn;
    try {
      reader = openReader(this.file, this.c.limits);
    } catch (e) {
      throw mapped(e);
    }
    let chunks: Generator<unknown[][]> | undefined;
    try {
      if (inIdOrder(query)) chunks = keysetChunks(reader, resource.id, query, DUMP_CHUNK_ROWS);
      else {
        groups.attachFor(reader, [resource.id]); // before the snapshot (groups.ts)
        reader.db.exec("BEGIN");
        chunks = searchChunks(reader, history.atVersion(reader, catalog.mustGetForRead(reader, resource.id), query), query, DUMP_CHUNK_ROWS);
      }
      for (;;) {
        let next: IteratorResult<unknown[][]>;
        try {
          next = chunks.next();
        } catch (e) {
          throw mapped(e);
        }
        if (next.done) return;
        yield next.value;
      }
    } finally {
      chunks?.return(undefined); // ends the statement, so the connection can close
      reader.db.close();
    }
  }

  // ------------------------------------------------------------------------------ history

  historyState(resource: Resource): Promise<HistoryState> {
    return this.reading(() => history.historyState(this.c, this.current(resource)));
  }

  historySize(resource: Resource): Promise<HistorySize> {
    return this.reading(() => history.historySize(this.c, this.current(resource)));
  }

  versionAt(resource: Resource, at: { version: number } | { time: string }): Promise<VersionEntry | undefined> {
    return this.reading(() => history.versionAt(this.c, this.current(resource), at));
  }

  versionEntries(resource: Resource, versions: number[]): Promise<VersionEntry[]> {
    return this.reading(() => history.versionEntries(this.c, this.current(resource), versions));
  }

  fieldsAt(resource: Resource, version: number): Promise<Field[] | undefined> {
    return this.reading(() => history.fieldsAt(this.c, this.current(resource), version));
  }

  rowImages(resource: Resource, row: { id: number } | { key: Record<string, unknown> }): Promise<{ id: number; ids: number[]; images: RowImage[] } | undefined> {
    return this.reading(() => history.rowImages(this.c, this.current(resource), row));
  }

  /** In one read transaction: the count and the page see the same rows. */
  changes(resource: Resource, since: number, after: { version: number; id: number } | null, limit: number): Promise<ChangesPage> {
    return this.reading(() => this.c.db.transaction(() => history.changes(this.c, this.current(resource), since, after, limit))());
  }

  pruneHistory(resource: Resource, before: string): Promise<number> {
    return this.writing(() => {
      const r = catalog.findResource(this.c, resource.id);
      return r?.active ? history.prune(this.c, catalog.mustGet(this.c, resource.id), before) : 0; // mustGet: its group attached
    });
  }

  /** The statements an exact search runs, for the benchmark's raw-SQL floor. */
  searchStatements(resource: Resource, query: SearchQuery): { sql: string; params: unknown[] }[] {
    return searchStatements(this.c, this.current(resource), query);
  }

  // ---------------------------------------------------------------------------- operations

  analyze(): Promise<void> {
    return this.writing(() => {
      this.c.db.exec("ANALYZE");
    });
  }

  async check(): Promise<void> {
    await this.lock.run(() => checkDatabase(this.c.db, this.file, "off"));
  }

  async scan(level: StartupCheck): Promise<void> {
    if (level !== "off") await scanPages(this.file, level);
  }

  /** SQLite's online backup, file by file: all pages of each in one step (a copy made step by
   *  step restarts whenever the server writes in between), then an integrity check of each.
   *  The groups are copied before `main`, as they commit after it (groups.ts), and the copy
   *  opens as after a crash: its catalog is made to agree with its groups (group-repair.ts). */
  async backup(target: string): Promise<string> {
    const out = path.resolve(target);
    for (const taken of [out, groups.groupsDir(out)]) if (fs.existsSync(taken)) throw new DatastoreUnavailable(`${taken} exists; choose a new file`);
    const started = Date.now();
    const reader = openReader(this.file, this.c.limits);
    const copies: string[] = [];
    try {
      for (const { group } of groups.groupFiles(this.file)) {
        const copy = groups.groupFile(out, group);
        fs.mkdirSync(path.dirname(copy), { recursive: true });
        groups.use(reader, group);
        // better-sqlite3 takes `attached` (its types lack it): the schema to copy.
        await reader.db.backup(copy, { attached: groups.schemaOf({ group }), progress: () => 0x7fffffff } as Database.BackupOptions);
        copies.push(copy);
      }
      await reader.db.backup(`${out}.partial`, { progress: () => 0x7fffffff });
    } finally {
      reader.db.close();
    }
    if (copies.length) fs.writeFileSync(groups.openMarker(out), "backup\n");
    fs.renameSync(`${out}.partial`, out); // a crash mid-copy never leaves a file that looks complete
    // Each copy is one self-contained file: no -wal or -shm beside it.
    let bytes = 0;
    const found = new Set<string>();
    for (const file of [out, ...copies]) {
      const check = new Database(file);
      check.pragma("journal_mode = DELETE");
      found.add(check.pragma("integrity_check", { simple: true }) as string);
      check.close();
      bytes += fs.statSync(file).size;
    }
    const mb = (bytes / 1e6).toFixed(1);
    const files = copies.length ? ` and ${copies.length} group files` : "";
    return `Backed up ${this.file} to ${out}${files} (${mb} MB, ${((Date.now() - started) / 1000).toFixed(1)} s, integrity ${[...found].join(", ")}).`;
  }

  /** What index learning did lately (index-learning.ts), for tests and the bench. */
  learnEvents(): readonly LearnEvent[] {
    return this.learner?.events ?? [];
  }

  /** The files the writer connection has open: main and its attached groups (test-support.ts). */
  schemas(): string[] {
    return ["main", ...groups.attachedGroups(this.c).map((group) => groups.schemaOf({ group }))];
  }

  /** A pragma on the writer connection, for tests that simulate faults (test-support.ts). */
  pragma(sql: string): unknown {
    return this.c.db.pragma(sql, { simple: true });
  }

  async close(): Promise<void> {
    await this.learner?.close();
    await this.pool?.close();
    if (!this.c.db.open) return;
    try {
      this.c.db.pragma("wal_checkpoint(TRUNCATE)"); // leave the file small; best effort while others read
    } catch {
      // busy: the next writer's checkpoint does it
    }
    const grouped = groups.grouped(this.c);
    this.c.db.close();
    if (grouped) closedCleanly(this.file);
  }
}
