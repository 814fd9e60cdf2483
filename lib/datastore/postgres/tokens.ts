// API tokens in the `api_tokens` table: the engine's TokenStorage. Only hashes are stored;
// the rules (secrets, expiry, scopes) live in lib/auth/tokens.ts.
import type pg from "pg";
import type { TokenStorage } from "../engine";
import { TOKEN_COLUMNS, tokenRecord, tokenValues, type TokenRow } from "../token-row";
import type { Queryable } from "./resource";

/**
 * `db`: where tokens are read and written (the primary, or a transaction's client); `pool`:
 * where a last-use refresh goes, outside any transaction, so its failure cannot undo one.
 */
export function pgTokens(db: Queryable, pool: pg.Pool): TokenStorage {
  return {
    insert: async (t) => {
      await db.query(`INSERT INTO api_tokens (${TOKEN_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, tokenValues(t));
    },
    list: async () => (await db.query<TokenRow>(`SELECT * FROM api_tokens ORDER BY created COLLATE "C", id COLLATE "C"`)).rows.map(tokenRecord),
    findByHash: async (hash) => {
      if (hash.includes("\u0000")) return undefined; // never stored (text cannot hold NUL)
      const { rows } = await db.query<TokenRow>("SELECT * FROM api_tokens WHERE token_hash = $1", [hash]);
      return rows[0] && tokenRecord(rows[0]);
    },
    setRate: async (id, rate) => !id.includes("\u0000") && ((await db.query("UPDATE api_tokens SET rate_per_minute = $1 WHERE id = $2", [rate, id])).rowCount ?? 0) > 0,
    remove: async (idOrHash) => !idOrHash.includes("\u0000") && ((await db.query("DELETE FROM api_tokens WHERE id = $1 OR token_hash = $1", [idOrHash])).rowCount ?? 0) > 0,
    touch: async (id, at) => {
      try {
        // SKIP LOCKED: a row another transaction holds is skipped, never waited for.
        await pool.query("UPDATE api_tokens SET last_used = $1 WHERE id = (SELECT id FROM api_tokens WHERE id = $2 FOR UPDATE SKIP LOCKED)", [at, id]);
      } catch {
        // A busy or unreachable database must not fail a read; the time is refreshed on a later request.
      }
    },
  };
}
