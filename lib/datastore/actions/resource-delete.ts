// resource_delete (CKAN core): removes a resource entirely: its table, data dictionary, aliases
// and catalog entry, in one transaction; resource_show answers 404 afterwards and the id may be
// created again. Unlike datastore_delete, nothing stays behind. Answers null, as CKAN.
import { recordWrite } from "../audit";
import { findWritableResource, requireScope, type ActionContext } from "../context";
import { requireResourceId, type Params } from "../validate";

export async function resourceDelete(ctx: ActionContext, params: Params) {
  const id = requireResourceId(params, "id");
  requireScope(ctx, "write", "resource_delete");
  const r = await findWritableResource(ctx, id, { inactive: true });
  await ctx.engine.transaction(async (tx) => {
    await tx.deleteResource(r.id);
    await recordWrite(tx, ctx.user, { action: "resource_delete", resourceId: r.id, rows: r.rowCount });
  }, [r.id]);
  return null;
}
