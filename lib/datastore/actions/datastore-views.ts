// datastore_view_create / _show / _list / _patch / _delete — our extension (docs/api.md
// "Saved views"): a named view of a resource (its search, filters, sort, columns, tab and the
// tab's settings, as the explorer's URL holds them). The rules are in ../saved-views.ts.
import { recordWrite } from "../audit";
import { findResource, requireRead, requireScope, type ActionContext } from "../context";
import type { Resource, ViewRecord } from "../engine";
import { DatastoreError, ErrorBag } from "../errors";
import { byName, canChangeView, canSeeView, checkState, mergeState, newViewId, readStateParams, readText, viewWire } from "../saved-views";
import { asBool, isEmptyParam, isUnset, requireResourceId, type Params } from "../validate";

export async function datastoreViewCreate(ctx: ActionContext, params: Params) {
  const bag = new ErrorBag();
  let resourceId = "";
  try {
    resourceId = requireResourceId(params);
  } catch {
    bag.add("resource_id", "Missing value");
  }
  const text = readText(params, bag, false);
  const changes = readStateParams(params, bag);
  bag.throwIfAny();
  requireScope(ctx, "write", "datastore_view_create");
  const r = await findResource(ctx, resourceId);
  requireRead(ctx, r, "datastore_view_create");
  const state = mergeState("", changes);
  checkState(r, state, params.filters, bag);
  bag.throwIfAny();
  const now = new Date().toISOString();
  const view: ViewRecord = {
    id: newViewId(),
    resourceId: r.id, // by id: renaming an alias leaves the view working
    name: text.name!,
    description: text.description ?? "",
    state,
    private: asBool(params.private, r.private),
    owner: ctx.user.tokenId ?? null,
    ownerName: ctx.user.name ?? null,
    created: now,
    modified: now,
  };
  await ctx.engine.transaction(async (tx) => {
    await tx.views.insert(view);
    await recordWrite(tx, ctx.user, { action: "datastore_view_create", resourceId: r.id, detail: { view: view.id, name: view.name } });
  });
  return viewWire(view, r);
}

export async function datastoreViewShow(ctx: ActionContext, params: Params) {
  const { view, r } = await visibleView(ctx, params, "datastore_view_show");
  return viewWire(view, r);
}

export async function datastoreViewList(ctx: ActionContext, params: Params) {
  if (isUnset(params.resource_id)) {
    const all = await ctx.engine.views.list();
    // The views' resources only: a catalog of thousands is not read for a few views.
    const found = await Promise.all([...new Set(all.map((v) => v.resourceId))].map((id) => ctx.engine.getResource(id)));
    const resources = new Map(found.filter((r) => r !== undefined).map((r) => [r.id, r]));
    const views = all.filter((v) => {
      const r = resources.get(v.resourceId);
      return r && canSeeView(ctx.user, v, r);
    });
    return views.sort(byName).map((v) => viewWire(v, resources.get(v.resourceId)!));
  }
  const r = await findResource(ctx, requireResourceId(params), { inactive: true });
  requireRead(ctx, r, "datastore_view_list");
  const views = (await ctx.engine.views.list(r.id)).filter((v) => canSeeView(ctx.user, v, r));
  return views.sort(byName).map((v) => viewWire(v, r));
}

export async function datastoreViewPatch(ctx: ActionContext, params: Params) {
  const bag = new ErrorBag();
  const text = readText(params, bag, true);
  const changes = readStateParams(params, bag);
  if (isEmptyParam(params.id)) bag.add("id", "Missing value");
  bag.throwIfAny();
  requireScope(ctx, "write", "datastore_view_patch");
  const { view, r } = await visibleView(ctx, params, "datastore_view_patch");
  if (!canChangeView(ctx.user, view)) throw DatastoreError.denied("User not authorized to change this view (only its owner or an admin may)");
  if (!isUnset(params.resource_id) && params.resource_id !== view.resourceId && !r.aliases.includes(String(params.resource_id))) {
    bag.add("resource_id", "A view's resource cannot be changed: save a new view of the other resource");
  }
  const state = mergeState(view.state, changes);
  checkState(r, state, params.filters, bag);
  bag.throwIfAny();
  const next: ViewRecord = {
    ...view,
    name: text.name ?? view.name,
    description: text.description ?? view.description,
    state,
    private: asBool(params.private, view.private),
    modified: new Date().toISOString(),
  };
  await ctx.engine.transaction(async (tx) => {
    await tx.views.update(next);
    await recordWrite(tx, ctx.user, { action: "datastore_view_patch", resourceId: r.id, detail: { view: next.id, name: next.name } });
  });
  return viewWire(next, r);
}

export async function datastoreViewDelete(ctx: ActionContext, params: Params) {
  if (isEmptyParam(params.id)) throw DatastoreError.field("id", "Missing value");
  requireScope(ctx, "write", "datastore_view_delete");
  const { view } = await visibleView(ctx, params, "datastore_view_delete");
  if (!canChangeView(ctx.user, view)) throw DatastoreError.denied("User not authorized to delete this view (only its owner or an admin may)");
  await ctx.engine.transaction(async (tx) => {
    if (!(await tx.views.remove(view.id))) throw DatastoreError.notFound(`View "${view.id}" was not found.`);
    await recordWrite(tx, ctx.user, { action: "datastore_view_delete", resourceId: view.resourceId, detail: { view: view.id, name: view.name } });
  });
  return null;
}

/** The view `id` names and its resource, 404 if either is gone, 403 if the caller may not see it. */
async function visibleView(ctx: ActionContext, params: Params, action: string): Promise<{ view: ViewRecord; r: Resource }> {
  if (isEmptyParam(params.id)) throw DatastoreError.field("id", "Missing value");
  const id = typeof params.id === "string" ? params.id : JSON.stringify(params.id);
  const view = id.includes("\u0000") ? undefined : await ctx.engine.views.get(id);
  const r = view && (await ctx.engine.getResource(view.resourceId));
  if (!view || !r) throw DatastoreError.notFound(`View "${id}" was not found.`);
  if (!canSeeView(ctx.user, view, r)) {
    throw DatastoreError.denied(`User not authorized to read this view (${action} needs ${view.private ? "the token that saved it, or an admin token" : "a token with read access"})`);
  }
  return { view, r };
}
