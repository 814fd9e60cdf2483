// API tokens: random secrets shown once, stored only as SHA-256 hashes (a 256-bit random
// secret needs no slow hash), with a scope (read < write < admin), an optional expiry and a
// last-used time. Shared by the token actions and the `npm run token` CLI.
import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import type { DB } from "../db/connection";
import { config } from "../config";
import type { Principal, Scope } from "../datastore/context";

export const SCOPES: Scope[] = ["read", "write", "admin"];

export interface TokenInfo {
  id: string;
  name: string;
  scope: Scope;
  created_at: string;
  expires_at: string | null;
  last_access: string | null;
}

interface TokenRow {
  id: string;
  name: string;
  scope: Scope;
  created: string;
  expires: string | null;
  last_used: string | null;
}

function hash(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

function nowIso(): string {
  return new Date().toISOString();
}

function info(row: TokenRow): TokenInfo {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope,
    created_at: row.created,
    expires_at: row.expires,
    last_access: row.last_used,
  };
}

export function createToken(db: DB, name: string, scope: Scope, expiresAt?: Date): TokenInfo & { token: string } {
  const secret = `dsx_${randomBytes(32).toString("base64url")}`;
  const row: TokenRow = {
    id: randomUUID(),
    name,
    scope,
    created: nowIso(),
    expires: expiresAt ? expiresAt.toISOString() : null,
    last_used: null,
  };
  db.prepare(
    "INSERT INTO api_tokens (id, name, scope, token_hash, created, expires) VALUES (?, ?, ?, ?, ?, ?)",
  ).run(row.id, row.name, row.scope, hash(secret), row.created, row.expires);
  return { ...info(row), token: secret };
}

export function listTokens(db: DB): TokenInfo[] {
  return (db.prepare("SELECT * FROM api_tokens ORDER BY created, id").all() as TokenRow[]).map(info);
}

/** Revokes by id, or by the secret itself. Returns whether a token was removed. */
export function revokeToken(db: DB, idOrSecret: string): boolean {
  return db.prepare("DELETE FROM api_tokens WHERE id = ? OR token_hash = ?").run(idOrSecret, hash(idOrSecret)).changes > 0;
}

function equalSecrets(a: string, b: string): boolean {
  const x = createHash("sha256").update(a).digest();
  const y = createHash("sha256").update(b).digest();
  return timingSafeEqual(x, y);
}

const LAST_USED_EVERY_MS = 60_000;

/**
 * The principal an Authorization header value names. Missing, unknown or expired tokens are
 * anonymous, as in CKAN. The lookup is by hash, so no secret is compared byte by byte.
 */
export function authenticate(db: DB, header: string | null): Principal {
  if (!header) return { scope: null };
  const secret = header.replace(/^Bearer\s+/i, "").trim();
  if (!secret) return { scope: null };
  const admin = config.adminToken;
  if (admin && equalSecrets(secret, admin)) return { scope: "admin", name: "DATASTORE_ADMIN_TOKEN" };
  const row = db.prepare("SELECT * FROM api_tokens WHERE token_hash = ?").get(hash(secret)) as TokenRow | undefined;
  if (!row) return { scope: null };
  const now = Date.now();
  if (row.expires && Date.parse(row.expires) <= now) return { scope: null };
  // Last use is recorded at most once a minute per token: a write per read would contend.
  if (!row.last_used || now - Date.parse(row.last_used) > LAST_USED_EVERY_MS) {
    try {
      db.prepare("UPDATE api_tokens SET last_used = ? WHERE id = ?").run(new Date(now).toISOString(), row.id);
    } catch {
      // A busy database must not fail a read; the time is refreshed on a later request.
    }
  }
  return { scope: row.scope, tokenId: row.id, name: row.name };
}

/** Token operations bound to one database, as actions receive them. */
export class TokenStore {
  constructor(readonly db: DB) {}
  create(name: string, scope: Scope, expiresAt?: Date) {
    return createToken(this.db, name, scope, expiresAt);
  }
  list() {
    return listTokens(this.db);
  }
  revoke(idOrSecret: string) {
    return revokeToken(this.db, idOrSecret);
  }
  authenticate(header: string | null) {
    return authenticate(this.db, header);
  }
}
