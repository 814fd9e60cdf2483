// An API token as the `api_tokens` table holds it, on every engine: the columns an insert names
// with the values in their order, and a row read back as the TokenRecord that the token rules
// (lib/auth/tokens.ts) work with. Only the hash of a secret is ever stored.
import type { TokenRecord } from "./engine";

/** Migration: what a token is limited to (JSON lists; NULL: no limit, as every older token). */
export const TOKEN_LIMITS = `
  ALTER TABLE api_tokens ADD COLUMN resources TEXT;
  ALTER TABLE api_tokens ADD COLUMN actions TEXT;
  `;

/** Migration: a token's own request budget (NULL: the default, as every older token). */
export const TOKEN_RATE = "ALTER TABLE api_tokens ADD COLUMN rate_per_minute INTEGER;";

export interface TokenRow {
  id: string;
  name: string;
  scope: TokenRecord["scope"];
  token_hash: string;
  created: string;
  expires: string | null;
  last_used: string | null;
  resources: string | null;
  actions: string | null;
  rate_per_minute: number | null;
}

/** The columns of an insert, in the order of tokenValues. */
export const TOKEN_COLUMNS = "id, name, scope, token_hash, created, expires, last_used, resources, actions, rate_per_minute";

const list = (v: string[] | null) => (v === null ? null : JSON.stringify(v));

export function tokenValues(t: TokenRecord): unknown[] {
  return [t.id, t.name, t.scope, t.hash, t.created, t.expires, t.lastUsed, list(t.resources), list(t.actions), t.ratePerMinute];
}

export function tokenRecord(r: TokenRow): TokenRecord {
  return {
    id: r.id,
    name: r.name,
    scope: r.scope,
    hash: r.token_hash,
    created: r.created,
    expires: r.expires,
    lastUsed: r.last_used,
    resources: r.resources === null ? null : (JSON.parse(r.resources) as string[]),
    actions: r.actions === null ? null : (JSON.parse(r.actions) as string[]),
    ratePerMinute: r.rate_per_minute === null ? null : Number(r.rate_per_minute),
  };
}
