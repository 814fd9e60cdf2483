// What every action receives: the engine and who is asking. Authorization rules live here,
// in one place, so each action states only which right it needs.
import type { Principal, Scope } from "../auth/principal";
import type { TokenStore } from "../auth/tokens";
import type { DatastoreEngine, Resource } from "./engine";
import { DatastoreError } from "./errors";

export interface ActionContext {
  engine: DatastoreEngine;
  tokens: TokenStore;
  /** The public base URL of the API (DATASTORE_SITE_URL, else the request's origin), for links. */
  siteUrl?: string;
  user: Principal;
}

export const ANONYMOUS: Principal = { scope: null };

const RANK: Record<Scope, number> = { read: 1, write: 2, admin: 3 };

export function hasScope(user: Principal, needed: Scope): boolean {
  return user.scope !== null && RANK[user.scope] >= RANK[needed];
}

export function canRead(user: Principal, r: Resource): boolean {
  return !r.private || hasScope(user, "read");
}

export function requireRead(ctx: ActionContext, r: Resource, action: string): void {
  if (!canRead(ctx.user, r)) {
    // No id in the message: asked by alias, the real id is not the caller's to learn.
    throw DatastoreError.denied(`User not authorized to read this resource (${action} needs a token with read access)`);
  }
}

export function requireScope(ctx: ActionContext, needed: Scope, action: string): void {
  if (hasScope(ctx.user, needed)) return;
  throw DatastoreError.denied(
    ctx.user.scope === null
      ? `Action ${action} requires an authenticated user`
      : `Action ${action} requires a token with ${needed} scope`,
  );
}

/**
 * Finds a resource by id or alias, 404 if unknown. A resource whose table was dropped
 * (inactive) has no rows to read or write, so it is not found either unless `inactive` is
 * asked for (resource_show lists it, as CKAN does, with datastore_active false). `noun`:
 * how the 404 names it (CKAN's datastore_info says "Resource/Alias").
 */
export async function findResource(
  ctx: ActionContext,
  idOrAlias: string,
  opts: { inactive?: boolean; noun?: string } = {},
): Promise<Resource> {
  const r = await ctx.engine.getResource(idOrAlias);
  if (!r || (!r.active && !opts.inactive)) throw DatastoreError.notFound(`${opts.noun ?? "Resource"} "${idOrAlias}" was not found.`);
  return r;
}

/** Write actions need the real id: an alias (a read-only name) is not found. */
export async function findWritableResource(ctx: ActionContext, id: string): Promise<Resource> {
  const r = await findResource(ctx, id);
  if (r.id !== id) throw DatastoreError.notFound(`Resource "${id}" was not found.`);
  return r;
}
