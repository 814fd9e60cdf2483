"use client";
// The resource's primary key (datastore_info's `indexes`, reason "primary_key"): the
// fields that name one record, which editing and deleting a row need, with the resource's own
// id (writes refuse an alias, as CKAN does). `fields` is empty without a key; null while
// unknown. Shares the explorer's info query, so it costs no request.
import { useQuery } from "@tanstack/react-query";
import { infoQuery } from "@/lib/api-client";
import { useToken } from "@/components/token/token-provider";

export type PrimaryKey = { resourceId: string; fields: string[] };

export function usePrimaryKey(resourceId: string): PrimaryKey | null {
  const { session, ready } = useToken();
  const { data } = useQuery({ ...infoQuery(session, resourceId), enabled: ready });
  if (!data) return null;
  return { resourceId: data.meta.id, fields: data.indexes?.find((ix) => ix.reason === "primary_key")?.fields ?? [] };
}
