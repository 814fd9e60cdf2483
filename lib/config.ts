// Configuration read once from the environment. Every limit the API enforces lives here,
// so operators tune one place and tests can see the defaults.
import os from "node:os";
import path from "node:path";

function intEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  return Number.isInteger(n) && n >= 0 ? n : fallback;
}

/** A tile URL template with {z}, {x} and {y}, over http(s); anything else is ignored. */
function tileTemplate(raw: string | undefined): string | undefined {
  const t = raw?.trim();
  if (!t || !/^https?:\/\/[^/{}]+\//.test(t) || !["{z}", "{x}", "{y}"].every((p) => t.includes(p))) return undefined;
  return t;
}

/** A budget: `n` a minute (as many at once) or `n:burst`; 0 or `off`: none; unset or unreadable:
 *  the fallback. */
/** A budget from the environment, else the default; `set`: the operator chose it. */
function rateEnv(name: string, fallback: string): { perMinute: number; burst: number; set: boolean } | null {
  const raw = (process.env[name] ?? "").trim().toLowerCase();
  if (raw === "0" || raw === "off") return null;
  const form = /^(\d+)(?::(\d+))?$/;
  const own = form.exec(raw);
  const m = own ?? form.exec(fallback)!;
  if (Number(m[1]) === 0) return null;
  return { perMinute: Number(m[1]), burst: Math.max(1, Number(m[2] ?? m[1])), set: own !== null };
}

export const config = {
  get dbPath(): string {
    return path.resolve(/* turbopackIgnore: true */ process.cwd(), process.env.DATASTORE_DB || "data/datastore.db");
  },
  /** PostgreSQL (postgresql://…) selects the PostgreSQL engine; unset: SQLite at dbPath. */
  get databaseUrl(): string | undefined {
    return process.env.DATASTORE_DATABASE_URL?.trim() || undefined;
  },
  /** A streaming replica of databaseUrl that data reads go to (docs/postgresql.md "Deployment"). */
  get readDatabaseUrl(): string | undefined {
    return process.env.DATASTORE_READ_DATABASE_URL?.trim() || undefined;
  },
  /** The PostgreSQL schema holding the catalog, tokens and every resource's table. */
  get pgSchema(): string {
    return process.env.DATASTORE_PG_SCHEMA?.trim() || "datastore";
  },
  /** Connections per PostgreSQL pool (the primary's, and the replica's). */
  get pgPoolSize(): number {
    return Math.max(2, intEnv("DATASTORE_PG_POOL", 8));
  },
  /** PostgreSQL: a dump sorted by anything but `_id` holds a connection and a snapshot while its
   *  client reads; when the client asks for nothing this long, the dump is ended and both freed. */
  get pgDumpIdleMs(): number {
    return Math.max(1, intEnv("DATASTORE_PG_DUMP_IDLE_MS", 60_000));
  },
  /** How a PostgreSQL import fills `_full_text`: by the row trigger during COPY (the default),
   *  or by UPDATEs after it ("update"), kept to measure the two against each other. */
  get pgBulkFullText(): "trigger" | "update" {
    return process.env.DATASTORE_PG_BULK_FULL_TEXT === "update" ? "update" : "trigger";
  },
  /** Where the data lives, for messages: the SQLite file, or PostgreSQL's host, database and
   *  schema (never the password). */
  get storeName(): string {
    const url = this.databaseUrl;
    if (!url) return this.dbPath;
    try {
      const u = new URL(url);
      return `PostgreSQL ${u.hostname}:${u.port || 5432}${u.pathname}, schema ${this.pgSchema}`;
    } catch {
      return `PostgreSQL (DATASTORE_DATABASE_URL), schema ${this.pgSchema}`;
    }
  },
  /** The public base URL (CKAN's ckan.site_url) for absolute links; unset: each request's origin. */
  get siteUrl(): string | undefined {
    return process.env.DATASTORE_SITE_URL?.replace(/\/+$/, "") || undefined;
  },
  get adminToken(): string | undefined {
    return process.env.DATASTORE_ADMIN_TOKEN || undefined;
  },
  get sampleData(): boolean {
    return !["0", "false", "no"].includes((process.env.DATASTORE_SAMPLE_DATA ?? "").toLowerCase());
  },
  get limitDefault(): number {
    return intEnv("DATASTORE_LIMIT_DEFAULT", 100);
  },
  get limitMax(): number {
    return intEnv("DATASTORE_LIMIT_MAX", 32000);
  },
  /** A total that would take longer than this is estimated (issue: bounded counts). */
  get countBudgetMs(): number {
    return intEnv("DATASTORE_COUNT_BUDGET_MS", 200);
  },
  /** Any query running longer than this is interrupted with a clear error. */
  get queryTimeoutMs(): number {
    return intEnv("DATASTORE_QUERY_TIMEOUT_MS", 10000);
  },
  /** PostgreSQL: a write's statement running longer than this is rolled back with a clear
   *  error (0: no limit); imports are exempt. */
  get writeTimeoutMs(): number {
    return intEnv("DATASTORE_WRITE_TIMEOUT_MS", 120_000);
  },
  /** Read worker threads; unset: one per core (at least two) plus one kept for cheap reads; 0
   *  runs reads on the main thread. */
  get readWorkers(): number | undefined {
    const raw = process.env.DATASTORE_READ_WORKERS;
    return raw === undefined || raw === "" ? undefined : intEnv("DATASTORE_READ_WORKERS", 0);
  },
  /** Reads judged expensive (scans, big sorts and counts) running at once; unset: all read
   *  workers but one, which stays free for cheap reads. */
  get expensiveReads(): number | undefined {
    const raw = process.env.DATASTORE_EXPENSIVE_READS;
    return raw === undefined || raw === "" ? undefined : Math.max(1, intEnv("DATASTORE_EXPENSIVE_READS", 1));
  },
  /** Megabytes of search answers the server keeps per resource version (SQLite, with read
   *  workers): any write to a resource makes its kept answers unused. 0 keeps none. */
  /** Days the audit trail keeps a write (datastore_audit_list); 0 or unset: for ever. */
  get auditDays(): number {
    return intEnv("DATASTORE_AUDIT_DAYS", 0);
  },
  /** Days of history kept (issue 27): older row images are removed in the background; 0 or
   *  unset: everything is kept. */
  get historyDays(): number {
    return intEnv("DATASTORE_HISTORY_DAYS", 0);
  },
  get pageCacheMb(): number {
    return intEnv("DATASTORE_PAGE_CACHE_MB", 32);
  },
  /** Web map tiles for the explorer's Map tab (e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png);
   *  unset: offline country and state outlines. The pages read it at run time (/api/explorer-config). */
  get mapTiles(): string | undefined {
    return tileTemplate(process.env.DATASTORE_MAP_TILES);
  },
  /** The credit the tile provider asks for, shown under the map. */
  get mapAttribution(): string | undefined {
    return process.env.DATASTORE_MAP_ATTRIBUTION?.trim() || undefined;
  },
  /** Origins whose pages may frame the embed pages (/embed…), space-separated, or `*`; anything
   *  that is not an origin (or `*`) is ignored, so nothing else reaches the header. */
  get embedOrigins(): string[] {
    const words = (process.env.DATASTORE_EMBED_ORIGINS ?? "").split(/\s+/).filter(Boolean);
    return words.filter((w) => w === "*" || /^https?:\/\/(\*\.)?[a-z0-9.-]+(:\d{1,5})?$/i.test(w));
  },
  get maxBodyBytes(): number {
    return intEnv("DATASTORE_MAX_BODY_BYTES", 50 * 1024 * 1024);
  },
  /** A file sent to POST /api/upload (docs/loading.md); streamed to disk, never held. */
  get maxUploadBytes(): number {
    return intEnv("DATASTORE_MAX_UPLOAD_BYTES", 4 * 1024 ** 3);
  },
  /** Where uploads wait to be imported, on the app server that received them. */
  get uploadDir(): string {
    return path.resolve(/* turbopackIgnore: true */ process.cwd(), process.env.DATASTORE_UPLOAD_DIR?.trim() || path.join(os.tmpdir(), "datastore-uploads"));
  },
  /** An upload not used (previewed, imported) for this long is removed. */
  get uploadTtlSeconds(): number {
    return intEnv("DATASTORE_UPLOAD_TTL_SECONDS", 3600);
  },
  get maxQLength(): number {
    return intEnv("DATASTORE_MAX_Q_LENGTH", 1000);
  },
  /** At most 1000: SQLite takes 2000 columns in a table or a result, and ranks and _id need room. */
  get maxFields(): number {
    return Math.min(intEnv("DATASTORE_MAX_FIELDS", 1000), 1000);
  },
  /** Records one datastore_create or datastore_upsert may carry. */
  get maxRecords(): number {
    return intEnv("DATASTORE_MAX_RECORDS", 100_000);
  },
  /** Values all filters of one request may list; SQLite binds at most 32766 in a statement,
   *  and a histogram binds the filters twice. */
  get maxFilterValues(): number {
    return Math.min(intEnv("DATASTORE_MAX_FILTER_VALUES", 10_000), 16_000);
  },
  /** What the server checks of the database file at start: quick_check (default), full, off. */
  get startupCheck(): "quick" | "full" | "off" {
    const v = (process.env.DATASTORE_STARTUP_CHECK ?? "").toLowerCase();
    return v === "full" || v === "off" ? v : "quick";
  },
  /** Nesting of arrays and objects in a request; deeper JSON would exhaust the stack later. */
  get maxJsonDepth(): number {
    return intEnv("DATASTORE_MAX_JSON_DEPTH", 100);
  },
  /** Indexes learned from slow reads (docs/performance.md "Indexes"); `0` turns learning off, and the
   *  import rule (auto-index.ts) back on. */
  get adaptiveIndexes(): boolean {
    return !["0", "false", "no"].includes((process.env.DATASTORE_ADAPTIVE_INDEXES ?? "").toLowerCase());
  },
  /** A read at least this slow is evidence for indexing the fields it filters or sorts on. */
  get adaptiveSlowMs(): number {
    return intEnv("DATASTORE_ADAPTIVE_SLOW_MS", 50);
  },
  /** Slow reads of one field (within ten minutes) that earn it an index. */
  get adaptiveReads(): number {
    return Math.max(1, intEnv("DATASTORE_ADAPTIVE_READS", 3));
  },
  /** Learned indexes one resource may have. */
  get adaptiveMaxIndexes(): number {
    return intEnv("DATASTORE_ADAPTIVE_MAX_INDEXES", 3);
  },
  /** Requests a minute from one client address without a token (docs/api.md "Quotas"). */
  get rateAnonymous() {
    return rateEnv("DATASTORE_RATE_ANONYMOUS", "600:300");
  },
  /** Requests a minute with one token, unless an admin gave the token its own. */
  get rateToken() {
    return rateEnv("DATASTORE_RATE_TOKEN", "6000:2000");
  },
  /** Seconds a minute of expensive reads (scans, big sorts, dumps) for one client. */
  get rateExpensive() {
    return rateEnv("DATASTORE_RATE_EXPENSIVE", "60");
  },
  /** Proxies in front of the server whose X-Forwarded-For is believed (0: none; `true`: one). */
  get trustProxy(): number {
    const raw = (process.env.DATASTORE_TRUST_PROXY ?? "").trim().toLowerCase();
    return ["true", "yes"].includes(raw) ? 1 : intEnv("DATASTORE_TRUST_PROXY", 0);
  },
  /** Learned indexes of a resource may take at most this share of its table's size (percent). */
  get adaptiveMaxSizePercent(): number {
    return intEnv("DATASTORE_ADAPTIVE_MAX_SIZE_PERCENT", 50);
  },
};
