"use client";
// Edit details: placeholder until the details dialog lands.
import type { DatastoreField, Resource } from "@/lib/api-client";

export function EditDetails({ resource, fields, onDeleted }: { resource: Resource; fields: DatastoreField[]; onDeleted: () => void }) {
  void resource;
  void fields;
  void onDeleted;
  return null;
}
