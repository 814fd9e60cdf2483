// datastore_info (contract §7): validate → exists (404) → may read (403) → describe.
import { findResource, requireRead, type ActionContext } from "../context";
import { nativeType } from "../types";
import { requireResourceId, type Params } from "../validate";

export async function datastoreInfo(ctx: ActionContext, params: Params) {
  const r = await findResource(ctx, requireResourceId(params), { noun: "Resource/Alias" });
  requireRead(ctx, r, "datastore_info");
  const stats = await ctx.engine.stats(r);
  const indexed = new Set([...r.indexes.flat(), ...r.primaryKey]);
  return {
    meta: {
      id: r.id,
      count: r.rowCount,
      table_type: "BASE TABLE",
      size: stats.size,
      idx_size: stats.idxSize,
      db_size: stats.dbSize,
      aliases: r.aliases,
    },
    fields: r.fields.map((f) => ({
      id: f.id,
      type: f.type,
      ...(f.info ? { info: f.info } : {}),
      schema: {
        native_type: nativeType(f.type),
        notnull: false,
        index_name: indexed.has(f.id) ? `${r.id}_${f.id}_idx` : null,
        is_index: indexed.has(f.id),
        // CKAN makes the key a unique index, not a constraint, so it reports false.
        uniquekey: false,
      },
    })),
  };
}
