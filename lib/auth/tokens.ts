// API tokens: random secrets shown once, stored only as SHA-256 hashes (a 256-bit random
// secret needs no slow hash), with a scope (read < write < admin), an optional expiry and a
// last-used time. The rules live here; where tokens are kept is the engine's TokenStorage.
// Shared by the token actions and the `npm run token` CLI.
import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { config } from "../config";
import type { TokenRecord, TokenStorage } from "../datastore/engine";
import type { Principal, Scope } from "./principal";

export interface TokenInfo {
  id: string;
  name: string;
  scope: Scope;
  created_at: string;
  expires_at: string | null;
  last_access: string | null;
  /** The resources (ids) it is limited to; null: every one its scope allows. */
  resources: string[] | null;
  /** The actions it is limited to; null: every one its scope allows. */
  actions: string[] | null;
  /** Its own request budget, requests a minute (0: none); null: DATASTORE_RATE_TOKEN's. */
  rate_per_minute: number | null;
}

/** What a new token is limited to (lists already checked: ids that exist, actions known). */
export interface TokenLimits {
  resources?: string[];
  actions?: string[];
  ratePerMinute?: number | null;
}

function hash(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

function info(t: TokenRecord): TokenInfo {
  return {
    id: t.id,
    name: t.name,
    scope: t.scope,
    created_at: t.created,
    expires_at: t.expires,
    last_access: t.lastUsed,
    resources: t.resources,
    actions: t.actions,
    rate_per_minute: t.ratePerMinute,
  };
}

function equalSecrets(a: string, b: string): boolean {
  const x = createHash("sha256").update(a).digest();
  const y = createHash("sha256").update(b).digest();
  return timingSafeEqual(x, y);
}

const LAST_USED_EVERY_MS = 60_000;

/** The token rules over one TokenStorage, as actions and the CLI receive them. */
export class TokenStore {
  constructor(readonly storage: TokenStorage) {}

  async create(name: string, scope: Scope, expiresAt?: Date, limits: TokenLimits = {}): Promise<TokenInfo & { token: string }> {
    const secret = `dsx_${randomBytes(32).toString("base64url")}`;
    const record: TokenRecord = {
      id: randomUUID(),
      name,
      scope,
      hash: hash(secret),
      created: new Date().toISOString(),
      expires: expiresAt ? expiresAt.toISOString() : null,
      lastUsed: null,
      resources: limits.resources ?? null,
      actions: limits.actions ?? null,
      ratePerMinute: limits.ratePerMinute ?? null,
    };
    await this.storage.insert(record);
    return { ...info(record), token: secret };
  }

  async list(): Promise<TokenInfo[]> {
    return (await this.storage.list()).map(info);
  }

  /** Revokes by id, or by the secret itself. Returns the token removed, if any. */
  async revoke(idOrSecret: string): Promise<TokenInfo | undefined> {
    const secretHash = hash(idOrSecret);
    const t = (await this.storage.list()).find((x) => x.id === idOrSecret || x.hash === secretHash);
    return t && (await this.storage.remove(t.id)) ? info(t) : undefined;
  }

  /**
   * The principal an Authorization header value names. Missing, unknown or expired tokens are
   * anonymous, as in CKAN. The lookup is by hash, so no secret is compared byte by byte.
   */
  async authenticate(header: string | null): Promise<Principal> {
    if (!header) return { scope: null };
    const secret = header.replace(/^Bearer\s+/i, "").trim();
    if (!secret) return { scope: null };
    const admin = config.adminToken;
    if (admin && equalSecrets(secret, admin)) return { scope: "admin", name: "DATASTORE_ADMIN_TOKEN" };
    const t = await this.storage.findByHash(hash(secret));
    if (!t) return { scope: null };
    const now = Date.now();
    if (t.expires && Date.parse(t.expires) <= now) return { scope: null };
    // Last use is recorded at most once a minute per token: a write per read would contend.
    if (!t.lastUsed || now - Date.parse(t.lastUsed) > LAST_USED_EVERY_MS) {
      await this.storage.touch(t.id, new Date(now).toISOString());
    }
    return {
      scope: t.scope,
      tokenId: t.id,
      name: t.name,
      ...(t.resources ? { resources: t.resources } : {}),
      ...(t.actions ? { actions: t.actions } : {}),
      ...(t.ratePerMinute !== null ? { ratePerMinute: t.ratePerMinute } : {}),
    };
  }
}
