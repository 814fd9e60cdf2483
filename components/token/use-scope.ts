"use client";
// What the token in use may do, for showing only the controls that would work. The API still
// decides every request: this only hides what a token cannot do.
import { useQuery } from "@tanstack/react-query";
import { whoamiQuery } from "@/lib/api-client";
import { useToken } from "./token-provider";

export function useScope() {
  const { session, ready } = useToken();
  const { data } = useQuery({ ...whoamiQuery(session), enabled: ready && Boolean(session.token) });
  const scope = session.token ? (data?.scope ?? null) : null;
  return { scope, canWrite: scope === "write" || scope === "admin", isAdmin: scope === "admin" };
}
