// datastore_delete and datastore_records_delete (contract §5). Without `filters`,
// datastore_delete drops the table and its aliases and the resource stays, inactive (CKAN's
// datastore_active false); with filters it deletes matching rows.
import { findWritableResource, requireScope, type ActionContext } from "../context";
import type { Filter, Resource } from "../engine";
import { DatastoreError } from "../errors";
import { filterValuesError, isPlainObject, parseJsonString, requireResourceId, type Params } from "../validate";

function toFilters(r: Resource, filters: Record<string, unknown>): Filter[] {
  const unknown = Object.keys(filters).filter((k) => k !== "_id" && !r.fields.some((f) => f.id === k));
  if (unknown.length) throw DatastoreError.field("filters", `fields "${unknown.join('", "')}" do not exist`);
  return Object.entries(filters).map(([field, value]) => {
    const isArrayField = r.fields.find((f) => f.id === field)?.type.startsWith("_");
    return { field, values: Array.isArray(value) && !isArrayField ? value : [value] };
  });
}

export async function datastoreDelete(ctx: ActionContext, params: Params) {
  const resourceId = requireResourceId(params);
  const hasFilters = params.filters !== undefined && params.filters !== null;
  const filters = hasFilters ? parseJsonString(params.filters) : undefined;
  if (hasFilters && !isPlainObject(filters)) throw DatastoreError.field("filters", "filters must be either a dict or null.");
  if (isPlainObject(filters) && filterValuesError(filters)) throw DatastoreError.field("filters", filterValuesError(filters)!);
  requireScope(ctx, "write", "datastore_delete");
  const r = await findWritableResource(ctx, resourceId);
  if (!isPlainObject(filters)) {
    await ctx.engine.dropTable(r.id);
    return { resource_id: r.id };
  }
  await ctx.engine.deleteRows(r.id, toFilters(r, filters));
  return { resource_id: r.id, filters };
}

export async function datastoreRecordsDelete(ctx: ActionContext, params: Params) {
  const resourceId = requireResourceId(params);
  if (params.filters === undefined || params.filters === null) throw DatastoreError.field("filters", "Missing value");
  const filters = parseJsonString(params.filters);
  if (!isPlainObject(filters)) throw DatastoreError.field("filters", "Must be a dict");
  if (filterValuesError(filters)) throw DatastoreError.field("filters", filterValuesError(filters)!);
  requireScope(ctx, "write", "datastore_records_delete");
  const r = await findWritableResource(ctx, resourceId);
  await ctx.engine.deleteRows(r.id, toFilters(r, filters));
  return { resource_id: r.id, filters };
}
