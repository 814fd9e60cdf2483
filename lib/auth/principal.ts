// Who is asking: a token's scope (read < write < admin) or anonymous. Its own module so the
// token rules (lib/auth/tokens.ts) and the action context both use it without importing each other.

export type Scope = "read" | "write" | "admin";

export const SCOPES: Scope[] = ["read", "write", "admin"];

export interface Principal {
  /** null: anonymous. */
  scope: Scope | null;
  tokenId?: string;
  name?: string;
  /** A token limited to these resources (ids) reads and writes no other; absent: no limit. */
  resources?: string[];
  /** A token limited to these actions calls no other; absent: every one its scope allows. */
  actions?: string[];
  /** The token's own request budget (lib/http/rate-limit.ts): requests a minute, 0 none;
   *  absent: the default. */
  ratePerMinute?: number;
}
