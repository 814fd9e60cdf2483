// datastore_delete and datastore_records_delete (contract §5). Without `filters`,
// datastore_delete drops the table and its aliases and the resource stays, inactive (CKAN's
// datastore_active false); with filters it deletes matching rows. Both take CKAN 2.12's
// filters, but only as a dict (a top-level list is refused, as CKAN does).
import { findWritableResource, requireScope, type ActionContext } from "../context";
import { DatastoreError } from "../errors";
import { bindFilters } from "../search-query";
import { isPlainObject, parseJsonString, requireResourceId, type Params } from "../validate";

export async function datastoreDelete(ctx: ActionContext, params: Params) {
  const resourceId = requireResourceId(params);
  const hasFilters = params.filters !== undefined && params.filters !== null;
  const filters = hasFilters ? parseJsonString(params.filters) : undefined;
  if (hasFilters && !isPlainObject(filters)) throw DatastoreError.field("filters", "filters must be either a dict or null.");
  requireScope(ctx, "write", "datastore_delete");
  const r = await findWritableResource(ctx, resourceId);
  if (!isPlainObject(filters)) {
    await ctx.engine.dropTable(r.id);
    return { resource_id: r.id };
  }
  await ctx.engine.deleteRows(r.id, bindFilters(r, filters));
  return { resource_id: r.id, filters };
}

export async function datastoreRecordsDelete(ctx: ActionContext, params: Params) {
  const resourceId = requireResourceId(params);
  if (params.filters === undefined || params.filters === null) throw DatastoreError.field("filters", "Missing value");
  const filters = parseJsonString(params.filters);
  if (!isPlainObject(filters)) throw DatastoreError.field("filters", "Must be a dict");
  requireScope(ctx, "write", "datastore_records_delete");
  const r = await findWritableResource(ctx, resourceId);
  await ctx.engine.deleteRows(r.id, bindFilters(r, filters));
  return { resource_id: r.id, filters };
}
