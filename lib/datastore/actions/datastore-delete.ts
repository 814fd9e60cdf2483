// datastore_delete and datastore_records_delete (contract §5). Without `filters`,
// datastore_delete drops the table and its aliases and the resource stays, inactive (CKAN's
// datastore_active false); with filters it deletes matching rows. Both take CKAN 2.12's
// filters, but only as a dict (a top-level list is refused, as CKAN does).
import { recordWrite } from "../audit";
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
  return ctx.engine.transaction(async (tx) => {
    if (!isPlainObject(filters)) {
      await tx.dropTable(r.id);
      await recordWrite(tx, ctx.user, { action: "datastore_delete", resourceId: r.id, rows: r.rowCount, detail: { table: "dropped" } });
      return { resource_id: r.id };
    }
    const rows = await tx.deleteRows(r.id, bindFilters(r, filters));
    await recordWrite(tx, ctx.user, { action: "datastore_delete", resourceId: r.id, rows, detail: { filters } });
    return { resource_id: r.id, filters };
  }, [r.id]);
}

export async function datastoreRecordsDelete(ctx: ActionContext, params: Params) {
  const resourceId = requireResourceId(params);
  if (params.filters === undefined || params.filters === null) throw DatastoreError.field("filters", "Missing value");
  const filters = parseJsonString(params.filters);
  if (!isPlainObject(filters)) throw DatastoreError.field("filters", "Must be a dict");
  requireScope(ctx, "write", "datastore_records_delete");
  const r = await findWritableResource(ctx, resourceId);
  return ctx.engine.transaction(async (tx) => {
    const rows = await tx.deleteRows(r.id, bindFilters(r, filters));
    await recordWrite(tx, ctx.user, { action: "datastore_records_delete", resourceId: r.id, rows, detail: { filters } });
    return { resource_id: r.id, filters };
  }, [r.id]);
}
