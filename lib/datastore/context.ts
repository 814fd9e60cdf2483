// What every action receives: the engine and who is asking. Authorization rules live here,
// in one place, so each action states only which right it needs; so does the rule for which
// resource a write names.
import type { Principal, Scope } from "../auth/principal";
import type { TokenStore } from "../auth/tokens";
import type { DatastoreEngine, Resource, WriteAuthor } from "./engine";
import { DatastoreError } from "./errors";

export interface ActionContext {
  engine: DatastoreEngine;
  tokens: TokenStore;
  /** The public base URL of the API (DATASTORE_SITE_URL, else the request's origin), for links. */
  siteUrl?: string;
  user: Principal;
}

export const ANONYMOUS: Principal = { scope: null };

/** Who a principal's writes are recorded as (history, audit): its token's id and name, never
 *  the secret; DATASTORE_ADMIN_TOKEN has a name and no id; anonymous, neither. */
export function authorOf(user: Principal): WriteAuthor {
  return { tokenId: user.tokenId ?? null, tokenName: user.name ?? null };
}

const RANK: Record<Scope, number> = { read: 1, write: 2, admin: 3 };

export function hasScope(user: Principal, needed: Scope): boolean {
  return user.scope !== null && RANK[user.scope] >= RANK[needed];
}

/**
 * Whether the caller reaches the resource `id` at all: a token limited to resources reaches
 * those alone, public or private, for reads and writes alike (as a Datasette 1.0 restricted
 * token is denied every table its restrictions leave out). Without the token the public ones
 * are readable still: the limit says what the token is for, and keeps it from anything else.
 */
export function reaches(user: Principal, id: string): boolean {
  return !user.resources || user.resources.includes(id);
}

/** Every rule about who may read a resource; every listing filters with it. */
export function canRead(user: Principal, r: Resource): boolean {
  return reaches(user, r.id) && (!r.private || hasScope(user, "read"));
}

/** No id in these messages: asked by alias, the real id is not the caller's to learn. */
const OTHER_RESOURCES = "the token is limited to other resources";

export function requireRead(ctx: ActionContext, r: Resource, action: string): void {
  if (!reaches(ctx.user, r.id)) throw DatastoreError.denied(`User not authorized to read this resource (${OTHER_RESOURCES})`);
  if (!canRead(ctx.user, r)) {
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
 * A write to the resource `id` (its real id; null for a new resource whose id is made up): write
 * scope, and a token limited to resources names it. Decided on the id alone, before any lookup,
 * so a limited token learns nothing of which other resources exist.
 */
export function requireWrite(ctx: ActionContext, id: string | null, action: string): void {
  requireScope(ctx, "write", action);
  if (id === null ? ctx.user.resources !== undefined : !reaches(ctx.user, id)) {
    throw DatastoreError.denied(`User not authorized to write ${id === null ? "a new resource" : "this resource"} (${OTHER_RESOURCES})`);
  }
}

/** Actions every token may call whatever its limits: what it may do is asked of it. */
const ALWAYS = new Set(["datastore_whoami"]);

/** A token limited to actions calls those alone. */
export function canCall(user: Principal, action: string): boolean {
  return !user.actions || user.actions.includes(action) || ALWAYS.has(action);
}

export function requireAction(ctx: ActionContext, action: string): void {
  if (!canCall(ctx.user, action)) throw DatastoreError.denied(`Action ${action} is not one this token may call`);
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

/**
 * A read of the resource `idOrAlias` names: `decide` checks and prepares it from the resource
 * (authorization, the query bound to its fields), throwing to refuse; `read` reads. First on
 * the copy the engine keeps from an earlier lookup (no lookup at all), when it keeps one. That
 * copy may be behind a change another app server made, so a refusal decided on it is decided
 * again, and the engine's read checks it against the store (DatastoreError.changed when it is
 * behind, having read nothing): either way the request runs again on a copy looked up now, and
 * again should that one change while being read (every write changes the version it is checked
 * by, so under a stream of writes a look-up and its read may be overtaken more than once).
 */
/** Reads on a copy looked up now, before a read overtaken by writes answers 409 (Retry-After). */
const FRESH_TRIES = 4;

export async function readResource<D, T>(ctx: ActionContext, idOrAlias: string, decide: (r: Resource) => D, read: (r: Resource, decided: D) => Promise<T>): Promise<T> {
  const kept = ctx.engine.keptResource?.(idOrAlias);
  if (kept?.active) {
    let decided: { value: D } | undefined;
    try {
      decided = { value: decide(kept) };
    } catch {
      // decided again below, on a copy looked up now
    }
    if (decided) {
      try {
        return await read(kept, decided.value);
      } catch (e) {
        if (!(e instanceof DatastoreError && e.changed)) throw e;
      }
    }
  }
  for (let attempt = 1; ; attempt++) {
    const r = await findResource(ctx, idOrAlias);
    const decided = decide(r);
    try {
      return await read(r, decided);
    } catch (e) {
      if (attempt === FRESH_TRIES || !(e instanceof DatastoreError && e.changed)) throw e;
    }
  }
}

/**
 * The resource a write names by `id`, or undefined when there is none (a write that may create
 * it). The one place that decides a write through an alias: an alias is a read-only name, and
 * CKAN looks a write's resource_id up as a resource (resource_show), which an alias is not, so
 * it is "not found" for every write: actions, imports and uploads alike.
 */
export async function writeTarget(engine: DatastoreEngine, id: string): Promise<Resource | undefined> {
  const r = await engine.getResource(id);
  if (r && r.id !== id) throw DatastoreError.notFound(`Resource "${id}" was not found.`);
  return r;
}

/** The resource a write action changes, by its real id (writeTarget), 404 if none; one whose
 *  table was dropped only when `inactive` is asked for (resource_patch, resource_delete). */
export async function findWritableResource(ctx: ActionContext, id: string, opts: { inactive?: boolean } = {}): Promise<Resource> {
  if (!reaches(ctx.user, id)) throw DatastoreError.denied(`User not authorized to write this resource (${OTHER_RESOURCES})`);
  const r = await writeTarget(ctx.engine, id);
  if (!r || (!r.active && !opts.inactive)) throw DatastoreError.notFound(`Resource "${id}" was not found.`);
  return r;
}
