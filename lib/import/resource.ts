// The resource an import loads into: a new one (through datastore_create's own validation), an
// existing one for an append, or for a replace the same resource rebuilt inside the import's
// transaction: its table dropped as datastore_delete drops it, then created again with the
// file's fields, keeping its id, name, description, private flag and full-text language
// (unless given), aliases and the data dictionary (`info`) of the fields whose ids stay.
import { TokenStore } from "../auth/tokens";
import { datastoreCreate } from "../datastore/actions/datastore-create";
import { writeTarget, type ActionContext } from "../datastore/context";
import type { DatastoreEngine, Resource } from "../datastore/engine";
import { DatastoreError } from "../datastore/errors";
import type { ImportOptions } from "./importer";
import { describe, type Plan } from "./rows";
import { ImportError } from "./source";
import { optionName } from "./wording";

/** What a replaced resource keeps beyond what its inactive catalog entry keeps by itself. */
export interface Kept {
  aliases: string[];
  info: Map<string, Record<string, unknown>>;
  language?: string;
  /** Whether it keeps history: a replace does not turn `history: false` back on. */
  history: boolean;
}

/** The resource to append to, or what a replace keeps (its table dropped by now); neither for a
 *  new resource. */
export async function target(tx: DatastoreEngine, opts: ImportOptions): Promise<{ existing?: Resource; kept?: Kept }> {
  const id = opts.resourceId;
  if (!id) return {};
  let existing = await writeTarget(tx, id);
  if (existing && !existing.active) existing = undefined; // its table was dropped: created again
  const idOption = optionName(opts.wording, "resourceId");
  if (opts.replace) {
    if (!existing) throw new ImportError(`${idOption}: resource ${id} was not found`);
    const kept: Kept = {
      aliases: existing.aliases,
      info: new Map(existing.fields.flatMap((f) => (f.info ? [[f.id, f.info] as const] : []))),
      language: existing.language,
      history: (await tx.historyState(existing)).enabled,
    };
    await tx.dropTable(existing.id);
    return { kept };
  }
  if (existing && !opts.append) throw new ImportError(`resource ${id} already exists; add ${optionName(opts.wording, "append")} to add rows to it`);
  if (!existing && opts.append) throw new ImportError(`${optionName(opts.wording, "append")}: resource ${id} was not found`);
  return { existing };
}

export async function createResource(tx: DatastoreEngine, opts: ImportOptions, plan: Plan, kept?: Kept): Promise<Resource> {
  // The importer's own rights; its author is who the audit trail names for the resource's creation.
  const author = opts.author;
  const ctx: ActionContext = { engine: tx, tokens: new TokenStore(tx.tokens), user: { scope: "admin", tokenId: author?.tokenId ?? undefined, name: author?.tokenName ?? undefined } };
  const fields = plan.columns.map((id, i) => {
    const info = kept?.info.get(id);
    return { id, type: plan.types[i], ...(info ? { info } : {}) };
  });
  const name = opts.name?.trim() || undefined;
  const language = opts.language ?? kept?.language;
  const lang = language ? { language } : {};
  let id: string;
  try {
    if (opts.resourceId) {
      // An inactive resource keeps its name, description and private flag when created again.
      id = String((await datastoreCreate(ctx, { resource_id: opts.resourceId, fields, force: true, ...lang, ...(kept ? { history: kept.history } : {}) })).resource_id);
      if (kept) {
        await tx.updateResourceMeta(id, { name, description: opts.description, private: opts.private });
        if (kept.aliases.length) await tx.setAliases(id, kept.aliases);
      } else {
        await tx.updateResourceMeta(id, { name: name ?? opts.resourceId, description: opts.description, private: Boolean(opts.private) });
      }
    } else {
      const resource = { name: name ?? "import", description: opts.description ?? "", private: Boolean(opts.private) };
      id = String((await datastoreCreate(ctx, { resource, fields, ...lang })).resource_id);
    }
  } catch (e) {
    if (e instanceof DatastoreError) throw new ImportError(`cannot create the resource: ${describe(e)}`);
    throw e;
  }
  return (await tx.getResource(id))!;
}
