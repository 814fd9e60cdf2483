"use client";
// What the token in use may do, for showing only the controls that would work. The API still
// decides every request: this only hides what a token cannot do.
import { useQuery } from "@tanstack/react-query";
import { useCallback } from "react";
import { whoamiQuery } from "@/lib/api-client";
import { mayDo, mayDoSomewhere } from "./may";
import { useToken } from "./token-provider";

export function useScope() {
  const { session, ready } = useToken();
  const { data } = useQuery({ ...whoamiQuery(session), enabled: ready && Boolean(session.token) });
  const me = session.token ? (data ?? null) : null;
  const scope = me?.scope ?? null;
  /** Whether the token may do the write `action` on the resource with this id (null: a new one). */
  const may = useCallback((action: string, resourceId: string | null) => mayDo(me, action, resourceId), [me]);
  /** Whether it may do `action` on some existing resource. */
  const maySomewhere = useCallback((action: string) => mayDoSomewhere(me, action), [me]);
  return { scope, isAdmin: scope === "admin", may, maySomewhere };
}
