// API tokens in the `api_tokens` table: the engine's TokenStorage. Only hashes are stored;
// the rules (secrets, expiry, scopes) live in lib/auth/tokens.ts.
import type { TokenStorage } from "../engine";
import { TOKEN_COLUMNS, tokenRecord, tokenValues, type TokenRow } from "../token-row";
import type { Conn } from "./connection";

/** `write` runs a write under the engine's write lock (see engine.ts); `busy`: the lock is held
 *  for seconds (a learned index's build), so a last-use refresh is skipped, not waited for. */
export function sqliteTokens(c: Conn, write: <T>(fn: () => T) => Promise<T>, busy: () => boolean = () => false): TokenStorage {
  return {
    insert: (t) =>
      write(() => {
        c.db.prepare(`INSERT INTO api_tokens (${TOKEN_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(...tokenValues(t));
      }),
    list: async () => (c.db.prepare("SELECT * FROM api_tokens ORDER BY created, id").all() as TokenRow[]).map(tokenRecord),
    findByHash: async (hash) => {
      const row = c.cache.get("SELECT * FROM api_tokens WHERE token_hash = ?").get(hash) as TokenRow | undefined;
      return row && tokenRecord(row);
    },
    setRate: (id, rate) => write(() => c.db.prepare("UPDATE api_tokens SET rate_per_minute = ? WHERE id = ?").run(rate, id).changes > 0),
    remove: (idOrHash) => write(() => c.db.prepare("DELETE FROM api_tokens WHERE id = ? OR token_hash = ?").run(idOrHash, idOrHash).changes > 0),
    touch: async (id, at) => {
      if (busy()) return;
      try {
        await write(() => withoutWaiting(c, () => c.cache.get("UPDATE api_tokens SET last_used = ? WHERE id = ?").run(at, id)));
      } catch {
        // A busy database must not fail, or hold up, a read; the time is refreshed on a later request.
      }
    },
  };
}

/** Runs fn with SQLite's busy wait off: a read must not wait for another process's writer. */
function withoutWaiting<T>(c: Conn, fn: () => T): T {
  const saved = c.db.pragma("busy_timeout", { simple: true }) as number;
  c.db.pragma("busy_timeout = 0");
  try {
    return fn();
  } finally {
    c.db.pragma(`busy_timeout = ${saved}`);
  }
}
