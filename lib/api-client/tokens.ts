// Plain fetchers for API tokens (api_token_list / api_token_create / api_token_revoke, admin
// only) and the list's query options. A new secret is returned to the caller once and never
// enters a query key or the query cache: only the list (which holds no secret) is cached.
import { queryOptions } from "@tanstack/react-query";
import { callAction, type Auth } from "./fetch";
import { noRetryOnClientErrors, queryKeys, type Session } from "./queries";

export type TokenScope = "read" | "write" | "admin";

export const TOKEN_SCOPES: readonly TokenScope[] = ["read", "write", "admin"];

/** The actions a token may be limited to, as the Tokens page offers them: those that read, and
 *  those that write (a read token's write actions are refused by its scope anyway). */
export const TOKEN_ACTIONS = {
  read: [
    "datastore_search", "datastore_info", "datastore_value_counts", "datastore_histogram", "datastore_aggregate",
    "datastore_summary", "datastore_search_all", "datastore_record_history", "datastore_changes", "resource_show",
    "resource_search", "datastore_view_show", "datastore_view_list",
  ],
  write: [
    "datastore_create", "datastore_upsert", "datastore_delete", "datastore_records_delete", "resource_patch",
    "resource_delete", "datastore_view_create", "datastore_view_patch", "datastore_view_delete", "datastore_audit_list",
  ],
} as const;

/** One token as api_token_list describes it (never its secret). */
export type ApiToken = {
  id: string;
  name: string;
  scope: TokenScope;
  created_at: string;
  expires_at: string | null;
  last_access: string | null;
  /** The resources (ids) it is limited to; null: every one its scope allows. */
  resources: string[] | null;
  /** The actions it is limited to; null: every one its scope allows. */
  actions: string[] | null;
};

export type NewApiToken = ApiToken & { token: string };

export type NewTokenRequest = {
  name: string;
  scope: TokenScope;
  expiresInDays: number | null;
  /** Resource ids; empty or absent: no limit. */
  resources?: string[];
  /** Action names; empty or absent: no limit. */
  actions?: string[];
};

const SECONDS_PER_DAY = 86400;

export function listTokens(auth: Auth, signal?: AbortSignal) {
  return callAction<ApiToken[]>("api_token_list", {}, auth, signal);
}

/** Creates a token; the answer holds its secret, which the server will never show again. */
export function createToken(auth: Auth, req: NewTokenRequest) {
  const expiry = req.expiresInDays ? { expires_in: req.expiresInDays, unit: SECONDS_PER_DAY } : {};
  const limits = {
    ...(req.resources?.length ? { resources: req.resources } : {}),
    ...(req.actions?.length ? { actions: req.actions } : {}),
  };
  return callAction<NewApiToken>("api_token_create", { name: req.name, scope: req.scope, ...expiry, ...limits }, auth);
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
