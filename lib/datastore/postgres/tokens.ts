// API tokens in the `api_tokens` table: the engine's TokenStorage. Only hashes are stored;
// the rules (secrets, expiry, scopes) live in lib/auth/tokens.ts.
import type pg from "pg";
import type { TokenRecord, TokenStorage } from "../engine";
import type { Queryable } from "./resource";

interface Row {
  id: string;
  name: string;
  scope: TokenRecord["scope"];
  token_hash: string;
  created: string;
  expires: string | null;
  last_used: string | null;
}

function record(r: Row): TokenRecord {
  return { id: r.id, name: r.name, scope: r.scope, hash: r.token_hash, created: r.created, expires: r.expires, lastUsed: r.last_used };
}

/**
 * `db`: where tokens are read and written (the primary, or a transaction's client); `pool`:
 * where a last-use refresh goes, outside any transaction, so its failure cannot undo one.
 */
export function pgTokens(db: Queryable, pool: pg.Pool): TokenStorage {
  return {
    insert: async (t) => {
      await db.query("INSERT INTO api_tokens (id, name, scope, token_hash, created, expires, last_used) VALUES ($1, $2, $3, $4, $5, $6, $7)", [
        t.id,
        t.name,
        t.scope,
        t.hash,
        t.created,
        t.expires,
        t.lastUsed,
      ]);
    },
    list: async () => (await db.query<Row>(`SELECT * FROM api_tokens ORDER BY created COLLATE "C", id COLLATE "C"`)).rows.map(record),
    findByHash: async (hash) => {
      if (hash.includes("\u0000")) return undefined; // never stored (text cannot hold NUL)
      const { rows } = await db.query<Row>("SELECT * FROM api_tokens WHERE token_hash = $1", [hash]);
      return rows[0] && record(rows[0]);
    },
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
