// Whether the token may do a write action on a resource, decided from its datastore_whoami answer
// as the API decides it (lib/datastore/context.ts): write scope, the action among its actions when
// it is limited to some, the resource among its resources when it is limited to some (never a new
// one then). Every write control of the explorer asks this, so none is offered that would be
// refused with a 403. The API still decides every request.
import type { Whoami } from "@/lib/api-client";

/** `resourceId`: the resource's own id (a limit names ids, never aliases); null for a new one. */
export function mayDo(me: Whoami | null | undefined, action: string, resourceId: string | null): boolean {
  if (!me || (me.scope !== "write" && me.scope !== "admin")) return false;
  if (me.actions && !me.actions.includes(action)) return false;
  if (!me.resources) return true;
  return resourceId !== null && me.resources.includes(resourceId);
}

/** Whether the token may do `action` on at least one existing resource (which one is chosen later). */
export function mayDoSomewhere(me: Whoami | null | undefined, action: string): boolean {
  if (me?.resources) return me.resources.some((id) => mayDo(me, action, id));
  return mayDo(me, action, null);
}
