// Full text at a past version (`as_of`). A row as it was at version v is a live row unchanged
// since (the resource's index matches it) or an image valid then (history.ts): a small index in
// the temp schema, of the same text and tokenizer, matches those. Ranks share one scale: a live
// row's is FTS5's bm25 as today's search computes it, an image's the same formula with the live
// index's statistics (fts-bm25.ts), so a past row ranks as a live row of its text would.
// A version with a field dropped since has words today's index no longer holds (the column
// stays while history needs it): then every row of the version goes into the temp index, which
// alone matches and ranks them.
import { DEFAULT_LANGUAGE } from "../text-language";
import type { Internal, StoredField } from "./catalog";
import type { Conn } from "./connection";
import { within } from "./deadline";
import { bm25, bm25Call, bm25Weights, idfs, indexTotals, parseMatch, rowTokens } from "./fts-bm25";
import { ftsTable, tempIndex } from "./fts-index";
import { schemaOf } from "./groups";
import { quoteIdent as q } from "./sql";

const texts = new WeakMap<Internal, PastText>();

/** The past full text of a resource atVersion made (history.ts), if it is one. */
export function pastTextOf(r: Internal): PastText | undefined {
  return texts.get(r);
}

export function setPastText(past: Internal, text: PastText): void {
  texts.set(past, text);
}

/** Ranked match tables kept per connection (least recently used first out): a search pages
 *  through its matches, and asks for them again, without ranking them again. */
const kept = new WeakMap<Conn, Map<string, string>>();
const MAX_KEPT = 8;
let made = 0;

function inTemp(c: Conn, name: string): boolean {
  return c.db.prepare("SELECT 1 FROM temp.sqlite_schema WHERE name = ?").pluck().get(name) !== undefined;
}

export class PastText {
  /**
   * `r`: the resource today; `view`: the name atVersion gave version `v` (its temp tables are
   * named after it); `last`: the largest `_id` then; `history`: the tables of images and of
   * updated rows' versions, null while no row ever changed.
   */
  /** Every row of the version is in the temp index: it has a field today's index has not. */
  private readonly whole: boolean;

  constructor(
    private readonly c: Conn,
    private readonly r: Internal,
    private readonly view: string,
    private readonly v: number,
    private readonly last: number,
    private readonly history: { hist: string; ver: string } | null,
    /** The version's fields (its view's columns). */
    private readonly fields: StoredField[],
  ) {
    const today = new Set([...r.columns.values()].map((f) => f.column));
    this.whole = fields.some((f) => !today.has(f.column));
  }

  /** Live rows of version v: inserted by then and not updated since (over the index's `rowid`). */
  private liveRows(): string {
    const updated = this.history ? ` AND rowid NOT IN (SELECT _id FROM ${schemaOf(this.r)}.${q(this.history.ver)} WHERE v > ${this.v})` : "";
    return `rowid <= ${this.last}${updated}`;
  }

  /** The temp index of the images valid at v (of every row then, when `whole`), made on first
   *  use; null when no row ever changed. */
  private images(): string | null {
    if (!this.history && !this.whole) return null;
    const name = `${this.view}#text`;
    if (!inTemp(this.c, name)) {
      const fields = this.whole ? this.fields : [...this.r.columns.values()];
      const cols = ["_id", ...fields.map((f) => q(f.column))].join(", ");
      const rows = this.whole
        ? `SELECT ${cols} FROM temp.${q(this.view)}`
        : `SELECT ${cols} FROM ${schemaOf(this.r)}.${q(this.history!.hist)} WHERE _valid_to > ${this.v} AND _valid_from <= ${this.v} AND _id <= ${this.last}`;
      within(this.c.db, this.c.limits.queryTimeoutMs, () => tempIndex(this.c.db, name, fields, rows, this.r.language ?? DEFAULT_LANGUAGE));
    }
    return name;
  }

  /** The `_id`s of version v's rows that `expr` matches: SQL and its parameters. */
  matching(expr: string): { sql: string; params: unknown[] } {
    if (this.whole) {
      const all = q(this.images()!);
      return { sql: `SELECT rowid FROM temp.${all} WHERE ${all} MATCH ?`, params: [expr] };
    }
    const fts = q(ftsTable(this.r.table));
    const live = `SELECT rowid FROM ${schemaOf(this.r)}.${fts} WHERE ${fts} MATCH ? AND ${this.liveRows()}`;
    const images = this.images();
    if (!images) return { sql: live, params: [expr] };
    return { sql: `${live} UNION ALL SELECT rowid FROM temp.${q(images)} WHERE ${q(images)} MATCH ?`, params: [expr, expr] };
  }

  /**
   * A temp table of version v's rows that `match` matches: `id`, and `s<k>` the bm25 of a rank
   * over field `rankFields[k]` (null: the whole row). Made once per version and search.
   */
  ranked(match: string, rankFields: (string | null)[]): string {
    let lists = kept.get(this.c);
    if (!lists) kept.set(this.c, (lists = new Map()));
    const key = `${this.view}\0${match}\0${JSON.stringify(rankFields)}`;
    const found = lists.get(key);
    lists.delete(key);
    // A read transaction rolled back takes the temp table with it.
    if (found && inTemp(this.c, found)) {
      lists.set(key, found);
      return found;
    }
    const name = `${this.view}#rank${++made}`;
    const db = this.c.db;
    db.exec(`CREATE TEMP TABLE ${q(name)} (id INTEGER PRIMARY KEY, ${rankFields.map((_, k) => `s${k} REAL`).join(", ")})`);
    try {
      within(db, this.c.limits.queryTimeoutMs, () => this.fill(name, match, rankFields));
    } catch (e) {
      db.exec(`DROP TABLE IF EXISTS temp.${q(name)}`);
      throw e;
    }
    lists.set(key, name);
    for (const [old, table] of lists) {
      if (lists.size <= MAX_KEPT) break;
      db.exec(`DROP TABLE IF EXISTS temp.${q(table)}`);
      lists.delete(old);
    }
    return name;
  }

  private fill(name: string, match: string, rankFields: (string | null)[]): void {
    const db = this.c.db;
    if (this.whole) {
      // Every row is in the temp index: FTS5's bm25 over it, on the version's own statistics.
      const all = q(this.images()!);
      const scores = rankFields.map((f) => bm25Call(all, this.fields, f));
      db.prepare(`INSERT INTO temp.${q(name)} SELECT rowid, ${scores.join(", ")} FROM temp.${all} WHERE ${all} MATCH ? AND (rowid % 251 != 0 OR ds_deadline())`).run(match);
      return;
    }
    const fields = [...this.r.columns.values()];
    const fts = q(ftsTable(this.r.table));
    const weights = rankFields.map((f) => bm25Weights(fields, f));
    const scores = rankFields.map((f) => bm25Call(fts, fields, f));
    db.prepare(`INSERT INTO temp.${q(name)} SELECT rowid, ${scores.join(", ")} FROM ${schemaOf(this.r)}.${fts} WHERE ${fts} MATCH ? AND ${this.liveRows()} AND (rowid % 251 != 0 OR ds_deadline())`).run(match);
    const images = this.images();
    if (!images) return;
    const img = q(images);
    const sizes = db.prepare(`SELECT id, sz FROM temp.${q(`${images}_docsize`)} WHERE id IN (SELECT rowid FROM temp.${img} WHERE ${img} MATCH ?)`).raw(true).all(match) as [number, Uint8Array][];
    if (sizes.length === 0) return;
    const { tree, phrases } = parseMatch(match);
    const totals = indexTotals(db, schemaOf(this.r), ftsTable(this.r.table));
    const scoped = (p: (typeof phrases)[number]) => (p.column === null ? p.text : `${q(p.column)} : ${p.text}`);
    const held = phrases.map((p) => db.prepare(`SELECT count(*) FROM ${schemaOf(this.r)}.${fts} WHERE ${fts} MATCH ?`).pluck().get(scoped(p)) as number);
    const idf = idfs(totals, held);
    // How often each phrase occurs in each column of each image: FTS5's own highlight marks
    // each occurrence (a \u0001 the text may hold already is counted out).
    const counts = new Map<number, Map<string, number>[]>(sizes.map(([id]) => [id, phrases.map(() => new Map<string, number>())]));
    const marks = (s: unknown) => (s === null ? 0 : String(s).split("\u0001").length - 1);
    const highlights = fields.map((f, i) => `highlight(${img}, ${i}, char(1), ''), ${img}.${q(f.column)}`).join(", ");
    const occurrences = db.prepare(`SELECT rowid, ${highlights} FROM temp.${img} WHERE ${img} MATCH ?`).raw(true);
    phrases.forEach((p, i) => {
      for (const [id, ...cols] of occurrences.all(scoped(p)) as [number, ...unknown[]][]) {
        const row = counts.get(id);
        if (!row) continue;
        fields.forEach((f, j) => {
          const n = marks(cols[2 * j]) - marks(cols[2 * j + 1]);
          if (n > 0) row[i].set(f.column, n);
        });
      }
    });
    const byColumn = weights.map((w) => (w ? new Map(fields.map((f, j) => [f.column, w[j]])) : null));
    const insert = db.prepare(`INSERT OR REPLACE INTO temp.${q(name)} VALUES (${["?", ...weights.map(() => "?")].join(", ")})`);
    for (const [id, sz] of sizes) {
      const tokens = rowTokens(sz);
      insert.run(id, ...byColumn.map((w) => bm25(tree, counts.get(id)!, tokens, idf, totals, w)));
    }
  }
}
