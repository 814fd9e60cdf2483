"use client";
// Add record: placeholder until row editing lands.
import type { DatastoreField } from "@/lib/api-client";

export function AddRecord({ resourceId, fields }: { resourceId: string; fields: DatastoreField[] }) {
  void resourceId;
  void fields;
  return null;
}
