// resource_patch (CKAN core): changes a resource's name, description and private flag (ours:
// CKAN keeps `private` on the dataset), and its full-text language (ours, as in datastore_create).
// Validate (409) → write scope (403) → the real id (404).
// Other keys are ignored: CKAN clients send back whole resource dicts (url, format…) that we
// derive rather than store, and the answer shows what was kept.
import { recordWrite } from "../audit";
import { findWritableResource, requireScope, type ActionContext } from "../context";
import type { NewResource } from "../engine";
import { ErrorBag } from "../errors";
import { parseLanguage } from "../text-language";
import { requireResourceId, type Params } from "../validate";
import { resourceDict } from "./resources";

const MAX_NAME = 200;
const MAX_DESCRIPTION = 10_000;
const TRUE_WORDS = new Set(["true", "yes", "t", "y", "1", "on"]);
const FALSE_WORDS = new Set(["false", "no", "f", "n", "0", "off"]);

/** CKAN's boolean converters: a boolean, or its words as text; anything else is refused. */
function asStrictBool(v: unknown): boolean | undefined {
  if (typeof v === "boolean") return v;
  const word = typeof v === "string" ? v.trim().toLowerCase() : undefined;
  if (word !== undefined && TRUE_WORDS.has(word)) return true;
  if (word !== undefined && FALSE_WORDS.has(word)) return false;
  return undefined;
}

export function parseResourcePatch(params: Params): Partial<Omit<NewResource, "id">> {
  const bag = new ErrorBag();
  const meta: Partial<Omit<NewResource, "id">> = {};
  if (params.name !== undefined) {
    const name = typeof params.name === "string" ? params.name.trim() : null;
    if (params.name !== null && typeof params.name !== "string") bag.add("name", "Must be a string");
    else if (!name) bag.add("name", "Missing value");
    else if (name.length > MAX_NAME) bag.add("name", `Must be at most ${MAX_NAME} characters long`);
    else meta.name = name;
  }
  if (params.description !== undefined) {
    const description = params.description ?? "";
    if (typeof description !== "string") bag.add("description", "Must be a string");
    else if (description.length > MAX_DESCRIPTION) bag.add("description", `Must be at most ${MAX_DESCRIPTION} characters long`);
    else meta.description = description;
  }
  if (params.private !== undefined) {
    const flag = asStrictBool(params.private);
    if (flag === undefined) bag.add("private", "Must be true or false");
    else meta.private = flag;
  }
  const language = parseLanguage(params.language, bag);
  if (language) meta.language = language;
  bag.throwIfAny();
  return meta;
}

export async function resourcePatch(ctx: ActionContext, params: Params) {
  const id = requireResourceId(params, "id");
  let meta = parseResourcePatch(params);
  requireScope(ctx, "write", "resource_patch");
  const r = await findWritableResource(ctx, id, { inactive: true });
  // A new language rebuilds the full-text index, apart from the catalog's other words.
  const { language, ...rest } = meta;
  if (language && r.active) await ctx.engine.setLanguage(r.id, language);
  meta = rest;
  if (Object.keys(meta).length) {
    await ctx.engine.transaction(async (tx) => {
      await tx.updateResourceMeta(r.id, meta);
      await recordWrite(tx, ctx.user, { action: "resource_patch", resourceId: r.id, detail: { changed: Object.keys(meta) } });
    }, [r.id]);
  }
  return resourceDict((await ctx.engine.getResource(r.id)) ?? r, ctx.siteUrl);
}
