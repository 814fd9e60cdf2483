// Prepared read statements kept per connection, least recently used first out. Values are
// bound, so the SQL of a resource's searches repeats, and compiling a statement costs about as
// much as running a first page.
import type Database from "better-sqlite3";

type Mode = "raw" | "pluck" | "row";

const SIZE = 256;

export class StatementCache {
  private statements = new Map<string, Database.Statement>();

  constructor(private db: Database.Database) {}

  get(sql: string, mode: Mode = "row"): Database.Statement {
    const key = `${mode}\0${sql}`;
    let s = this.statements.get(key);
    if (s) this.statements.delete(key);
    else {
      s = this.db.prepare(sql);
      if (mode === "raw") s.raw(true);
      if (mode === "pluck") s.pluck(true);
      if (this.statements.size >= SIZE) this.statements.delete(this.statements.keys().next().value!);
    }
    this.statements.set(key, s);
    return s;
  }
}

/** A small bounded memo (query plans decided once per SQL text). */
export class Memo<V> {
  private map = new Map<string, V>();
  get(key: string, make: () => V): V {
    let v = this.map.get(key);
    if (v === undefined) {
      if (this.map.size >= SIZE) this.map.clear();
      this.map.set(key, (v = make()));
    }
    return v;
  }
  /** The value kept for `key`, if any, without making it. */
  peek(key: string): V | undefined {
    return this.map.get(key);
  }
}

/** Bound values as a memo's key: JSON, big integers marked. */
export function valuesKey(params: unknown[]): string {
  return JSON.stringify(params, (_k, v: unknown) => (typeof v === "bigint" ? `${v}n` : v));
}
