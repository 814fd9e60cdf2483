// What every action receives: the engine and who is asking. Authorization rules live here,
// in one place, so each action states only which right it needs.
import type { TokenStore } from "../auth/tokens";
import type { DatastoreEngine, Resource } from "./engine";
import { DatastoreError } from "./errors";

export type Scope = "read" | "write" | "admin";

export interface Principal {
  /** null: anonymous. */
  scope: Scope | null;
  tokenId?: string;
  name?: string;
}

export interface ActionContext {
  engine: DatastoreEngine;
  tokens: TokenStore;
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

/** Finds a resource by id or alias, 404 if unknown. */
export function findResource(ctx: ActionContext, idOrAlias: string): Resource {
  const r = ctx.engine.getResource(idOrAlias);
  if (!r) throw DatastoreError.notFound(`Resource "${idOrAlias}" was not found.`);
  return r;
}

/** Write actions need the real id: an alias (a read-only name) is not found. */
export function findWritableResource(ctx: ActionContext, id: string): Resource {
  const r = findResource(ctx, id);
  if (r.id !== id) throw DatastoreError.notFound(`Resource "${id}" was not found.`);
  return r;
}
