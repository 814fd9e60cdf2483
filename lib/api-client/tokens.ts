// Plain fetchers for API tokens (api_token_list / api_token_create / api_token_revoke, admin
// only) and the list's query options. A new secret is returned to the caller once and never
// enters a query key or the query cache: only the list (which holds no secret) is cached.
import { queryOptions } from "@tanstack/react-query";
import { callAction, type Auth } from "./fetch";
import { noRetryOnClientErrors, queryKeys, type Session } from "./queries";

export type TokenScope = "read" | "write" | "admin";

export const TOKEN_SCOPES: readonly TokenScope[] = ["read", "write", "admin"];

/** One token as api_token_list describes it (never its secret). */
export type ApiToken = {
  id: string;
  name: string;
  scope: TokenScope;
  created_at: string;
  expires_at: string | null;
  last_access: string | null;
};

export type NewApiToken = ApiToken & { token: string };

export type NewTokenRequest = { name: string; scope: TokenScope; expiresInDays: number | null };

const SECONDS_PER_DAY = 86400;

export function listTokens(auth: Auth, signal?: AbortSignal) {
  return callAction<ApiToken[]>("api_token_list", {}, auth, signal);
}

/** Creates a token; the answer holds its secret, which the server will never show again. */
export function createToken(auth: Auth, req: NewTokenRequest) {
  const expiry = req.expiresInDays ? { expires_in: req.expiresInDays, unit: SECONDS_PER_DAY } : {};
  return callAction<NewApiToken>("api_token_create", { name: req.name, scope: req.scope, ...expiry }, auth);
}

export function revokeToken(auth: Auth, id: string) {
  return callAction<null>("api_token_revoke", { id }, auth);
}

export const tokenKeys = {
  list: (s: Session) => [...queryKeys.all(s), "api_token_list"] as const,
};

export function tokensQuery(s: Session) {
  return queryOptions({
    queryKey: tokenKeys.list(s),
    queryFn: ({ signal }) => listTokens(s, signal),
    retry: noRetryOnClientErrors,
  });
}
