// CKAN's api_token_create / api_token_list / api_token_revoke, for admin tokens only.
import { SCOPES, type Scope } from "../../auth/principal";
import { requireScope, type ActionContext } from "../context";
import { DatastoreError, ErrorBag } from "../errors";
import { asInt, isUnset, type Params } from "../validate";

export async function apiTokenCreate(ctx: ActionContext, params: Params) {
  const bag = new ErrorBag();
  if (isUnset(params.name) || typeof params.name !== "string") bag.add("name", "Missing value");
  const scope = (isUnset(params.scope) ? "read" : params.scope) as Scope;
  if (!SCOPES.includes(scope)) bag.add("scope", `Value must be one of ${SCOPES.join(", ")}`);
  // CKAN: expires_in counts `unit`s of seconds (unit defaults to a day here).
  const expiresIn = asInt(params.expires_in, "expires_in", bag, 0, "Must be a natural number");
  const unit = asInt(params.unit, "unit", bag, 86400, "Must be a natural number");
  const expires = expiresIn > 0 ? new Date(Date.now() + expiresIn * unit * 1000) : undefined;
  if (expires && Number.isNaN(expires.getTime())) bag.add("expires_in", "expiry is too far in the future");
  bag.throwIfAny();
  requireScope(ctx, "admin", "api_token_create");
  return ctx.tokens.create(params.name as string, scope, expires);
}

export async function apiTokenList(ctx: ActionContext) {
  requireScope(ctx, "admin", "api_token_list");
  return ctx.tokens.list();
}

export async function apiTokenRevoke(ctx: ActionContext, params: Params) {
  const target = [params.jti, params.id, params.token].find((v) => !isUnset(v));
  if (typeof target !== "string") throw DatastoreError.field("jti", "Missing value");
  requireScope(ctx, "admin", "api_token_revoke");
  // The target may be the secret itself: never echo it.
  if (!(await ctx.tokens.revoke(target))) throw DatastoreError.notFound("API token was not found.");
  return null;
}

/** Our extension: what the caller's token may do, so a page shows only the controls that would
 *  work. Any caller may ask; the answer never holds the secret. */
export async function datastoreWhoami(ctx: ActionContext) {
  return { scope: ctx.user.scope, name: ctx.user.name ?? null };
}
