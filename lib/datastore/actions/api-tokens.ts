// CKAN's api_token_create / api_token_list / api_token_revoke, for admin tokens only; ours:
// a token limited to chosen resources and actions, and datastore_whoami.
import { SCOPES, type Scope } from "../../auth/principal";
import { TokenStore } from "../../auth/tokens";
import { recordWrite } from "../audit";
import { ratePerMinute } from "./api-token-patch";
import { requireScope, type ActionContext } from "../context";
import { DatastoreError, ErrorBag } from "../errors";
import { asInt, asList, isUnset, type Params } from "../validate";

/** A list of names, as a list or one comma-separated string; undefined when not given. */
function names(v: unknown, key: string, bag: ErrorBag): string[] | undefined {
  if (isUnset(v)) return undefined;
  const list = asList(v);
  if (!list || list.some((x) => typeof x !== "string" || !x.trim())) {
    bag.add(key, "Must be a list of names");
    return undefined;
  }
  const out = [...new Set((list as string[]).map((x) => x.trim()))];
  if (!out.length) bag.add(key, "Must name at least one (leave it out for no limit)");
  return out;
}

/** `known`: the action registry's names (passed in, so this file does not import the registry). */
export async function apiTokenCreate(ctx: ActionContext, params: Params, known: readonly string[]) {
  const bag = new ErrorBag();
  if (isUnset(params.name) || typeof params.name !== "string") bag.add("name", "Missing value");
  const scope = (isUnset(params.scope) ? "read" : params.scope) as Scope;
  if (!SCOPES.includes(scope)) bag.add("scope", `Value must be one of ${SCOPES.join(", ")}`);
  // CKAN: expires_in counts `unit`s of seconds (unit defaults to a day here).
  const expiresIn = asInt(params.expires_in, "expires_in", bag, 0, "Must be a natural number");
  const unit = asInt(params.unit, "unit", bag, 86400, "Must be a natural number");
  const expires = expiresIn > 0 ? new Date(Date.now() + expiresIn * unit * 1000) : undefined;
  if (expires && Number.isNaN(expires.getTime())) bag.add("expires_in", "expiry is too far in the future");
  const resources = names(params.resources, "resources", bag);
  const actions = names(params.actions, "actions", bag);
  const rate = isUnset(params.rate_per_minute) ? null : ratePerMinute(params.rate_per_minute, bag);
  const unknownActions = (actions ?? []).filter((a) => !known.includes(a));
  if (unknownActions.length) bag.add("actions", `Unknown action: ${unknownActions.join(", ")}`);
  // An admin token manages tokens and reads every resource's audit: nothing one resource bounds.
  if (resources && scope === "admin") bag.add("resources", "An admin token cannot be limited to resources: use read or write scope");
  bag.throwIfAny();
  requireScope(ctx, "admin", "api_token_create");

  return ctx.engine.transaction(async (tx) => {
    // Ids or aliases, kept as ids: a token for a table stays with it when an alias moves.
    const ids: string[] = [];
    for (const name of resources ?? []) {
      const r = name.includes("\u0000") ? undefined : await tx.getResource(name);
      if (!r) bag.add("resources", `Resource "${name}" was not found`);
      else if (!ids.includes(r.id)) ids.push(r.id);
    }
    bag.throwIfAny();
    const created = await new TokenStore(tx.tokens).create(params.name as string, scope, expires, { resources: resources && ids, actions, ratePerMinute: rate });
    await recordWrite(tx, ctx.user, { action: "api_token_create", resourceId: null, detail: { token: created.name, id: created.id, scope, resources: created.resources, actions: created.actions } });
    return created;
  });
}

export async function apiTokenList(ctx: ActionContext) {
  requireScope(ctx, "admin", "api_token_list");
  return ctx.tokens.list();
}

export async function apiTokenRevoke(ctx: ActionContext, params: Params) {
  const target = [params.jti, params.id, params.token].find((v) => !isUnset(v));
  if (typeof target !== "string") throw DatastoreError.field("jti", "Missing value");
  requireScope(ctx, "admin", "api_token_revoke");
  return ctx.engine.transaction(async (tx) => {
    const gone = await new TokenStore(tx.tokens).revoke(target);
    // The target may be the secret itself: never echo it.
    if (!gone) throw DatastoreError.notFound("API token was not found.");
    await recordWrite(tx, ctx.user, { action: "api_token_revoke", resourceId: null, detail: { token: gone.name, id: gone.id } });
    return null;
  });
}

/** Our extension: what the caller's token may do, so a page shows only the controls that would
 *  work. Any caller may ask, whatever its token's limits; the answer never holds the secret. */
export async function datastoreWhoami(ctx: ActionContext) {
  const { scope, name, resources, actions } = ctx.user;
  return { scope, name: name ?? null, resources: resources ?? null, actions: actions ?? null };
}
