// datastore_info (contract §7): validate → exists (404) → may read (403) → describe. `meta`
// holds CKAN's seven keys first (CKAN's own test_info_success counts them), then history's
// (issue 27: version, last_modified, history) and the full-text `language` (issue 28), which
// the explorer reads there; ours, `indexes`
// (why each index exists, docs/performance.md "Indexes"), stands beside it, where CKAN
// clients ignore it. CKAN 2.12's include_meta and include_fields_schema (default true) leave
// out their parts.
import type { Resource } from "../engine";
import { findResource, requireRead, type ActionContext } from "../context";
import { DEFAULT_LANGUAGE } from "../text-language";
import { nativeType } from "../types";
import { asBool, requireResourceId, type Params } from "../validate";

export type IndexReason = "primary_key" | "declared" | "import" | "learned";

/** The resource's indexes, each with its reason; a learned one with what earned and cost it. */
export function describeIndexes(r: Resource) {
  const picked = new Set((r.importIndexes ?? []).map((ix) => JSON.stringify(ix)));
  const out: Record<string, unknown>[] = [];
  if (r.primaryKey.length) out.push({ fields: r.primaryKey, reason: "primary_key" satisfies IndexReason });
  for (const ix of r.indexes) out.push({ fields: ix, reason: (picked.has(JSON.stringify(ix)) ? "import" : "declared") satisfies IndexReason });
  for (const ix of r.learnedIndexes ?? []) {
    out.push({ fields: ix.fields, reason: "learned" satisfies IndexReason, learned: { created: ix.created, slow_reads: ix.reads, build_ms: ix.buildMs, size: ix.bytes } });
  }
  return out;
}

export async function datastoreInfo(ctx: ActionContext, params: Params) {
  const r = await findResource(ctx, requireResourceId(params), { noun: "Resource/Alias" });
  requireRead(ctx, r, "datastore_info");
  const includeMeta = asBool(params.include_meta, true);
  const includeSchema = asBool(params.include_fields_schema, true);
  const indexed = new Set([...r.indexes.flat(), ...r.primaryKey, ...(r.learnedIndexes ?? []).flatMap((ix) => ix.fields)]);
  const fields = r.fields.map((f) => ({
    id: f.id,
    type: f.type,
    ...(f.info ? { info: f.info } : {}),
    ...(includeSchema
      ? {
          schema: {
            native_type: nativeType(f.type),
            notnull: false,
            index_name: indexed.has(f.id) ? `${r.id}_${f.id}_idx` : null,
            is_index: indexed.has(f.id),
            // CKAN makes the key a unique index, not a constraint, so it reports false.
            uniquekey: false,
          },
        }
      : {}),
  }));
  if (!includeMeta) return { indexes: describeIndexes(r), fields };
  const [stats, state, kept] = await Promise.all([ctx.engine.stats(r), ctx.engine.historyState(r), ctx.engine.historySize(r)]);
  const meta = {
    id: r.id, count: r.rowCount, table_type: "BASE TABLE", size: stats.size, idx_size: stats.idxSize, db_size: stats.dbSize, aliases: r.aliases, language: r.language ?? DEFAULT_LANGUAGE,
    // History (issue 27): the version every committed write raises, and what is kept of the past.
    version: state.version,
    last_modified: state.lastModified,
    history: { enabled: state.enabled, versions: kept.versions, rows: kept.rows, bytes: kept.bytes, oldest_version: state.oldest },
  };
  return { meta, indexes: describeIndexes(r), fields };
}
