// Saved views (datastore_view_*), the rules written once for every engine: what a view holds
// (what the explorer's URL holds, read by its own codec, so every tab's settings are kept,
// whatever tabs there are), who sees one (a private view: its owner and admins; a view of a
// private resource: who may read the resource) and who changes one (its owner and admins, with
// write scope). An engine only stores the rows (ViewStorage).
import { randomBytes } from "node:crypto";
import type { Principal } from "../auth/principal";
import { parseViewState, serializeViewState } from "../view-state/codec";
import { TABS } from "../view-state/types";
import { fieldsNamed, withoutFields } from "../view-state/view-fields";
import { canRead, hasScope } from "./context";
import type { Resource, ViewRecord } from "./engine";
import { ErrorBag } from "./errors";
import { bindFilters } from "./search-query";
import { isPlainObject, isUnset, parseJsonString, type Params } from "./validate";

/** The parameters of a view that are not its state. */
const OWN = new Set(["id", "resource_id", "name", "description", "private"]);
const MAX_NAME = 200;
const MAX_DESCRIPTION = 2000;
/** The state's query string: about what a browser's address bar takes. */
const MAX_STATE = 16_000;

/** A short random id, for the short address /v/<id>. */
export function newViewId(): string {
  return randomBytes(8).toString("base64url");
}

/** `name` (required unless `patching`) and `description`, checked into `bag`. */
export function readText(params: Params, bag: ErrorBag, patching: boolean): { name?: string; description?: string } {
  const out: { name?: string; description?: string } = {};
  if (!(patching && params.name === undefined)) {
    const name = typeof params.name === "string" ? params.name.trim() : "";
    if (!name) bag.add("name", "Missing value");
    else if (name.length > MAX_NAME) bag.add("name", `Must be at most ${MAX_NAME} characters`);
    else if (name.includes("\u0000")) bag.add("name", "Must not hold a NUL character");
    else out.name = name;
  }
  if (!isUnset(params.description)) {
    const d = params.description;
    if (typeof d !== "string") bag.add("description", "Must be a string");
    else if (d.length > MAX_DESCRIPTION) bag.add("description", `Must be at most ${MAX_DESCRIPTION} characters`);
    else if (d.includes("\u0000")) bag.add("description", "Must not hold a NUL character");
    else out.description = d;
  } else if (params.description !== undefined || !patching) out.description = "";
  return out;
}

/**
 * The state parameters given (every one but the view's own: `q`, `filters`, `sort`, `fields`,
 * `tab` and the tab's settings, spelled as the explorer's URL spells them, `tab` for its
 * `view`), as URL parameters; null removes a setting. Errors go to `bag`.
 */
export function readStateParams(params: Params, bag: ErrorBag): { set: URLSearchParams; removed: string[] } {
  const set = new URLSearchParams();
  const removed: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (OWN.has(key) || value === undefined) continue;
    const urlKey = key === "tab" ? "view" : key;
    if (value === null || value === "") {
      removed.push(urlKey);
    } else if (key === "filters") {
      const f = typeof value === "string" || typeof value === "object" ? parseJsonString(value) : undefined;
      if (!isPlainObject(f) && !Array.isArray(f)) bag.add("filters", "Cannot parse JSON");
      else set.set("filters", JSON.stringify(f));
    } else if (key === "tab" && !TABS.includes(value as never)) {
      bag.add("tab", `Value must be one of ${TABS.join(", ")}`);
    } else if (Array.isArray(value)) {
      if (value.some((v) => typeof v !== "string")) bag.add(key, "Must be a list of strings");
      for (const v of value) set.append(urlKey, String(v));
      // one value holding a comma: a second, empty one keeps it from being read as a list
      if (value.length === 1 && String(value[0]).includes(",")) set.append(urlKey, "");
    } else if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
      set.set(urlKey, String(value));
    } else {
      bag.add(key, "Must be a string");
    }
  }
  return { set, removed };
}

/** The stored state with `changes` applied, in the explorer codec's canonical form. */
export function mergeState(stored: string, changes: { set: URLSearchParams; removed: string[] }): string {
  const merged = new URLSearchParams(stored);
  for (const key of [...changes.removed, ...changes.set.keys()]) merged.delete(key);
  for (const [key, value] of changes.set) merged.append(key, value);
  const view = parseViewState(merged);
  return serializeViewState({ ...view, resource_id: null }).toString();
}

/** 409s for a state that names fields the resource does not have, or filters it refuses. */
export function checkState(r: Resource, state: string, givenFilters: unknown, bag: ErrorBag): void {
  if (state.length > MAX_STATE) bag.add("state", `The view is too long (at most ${MAX_STATE} characters as a query string)`);
  if (givenFilters !== undefined && givenFilters !== null && givenFilters !== "") {
    try {
      bindFilters(r, parseJsonString(givenFilters));
    } catch (e) {
      const details = (e as { details?: Record<string, string[]> }).details;
      for (const m of details?.filters ?? ["invalid filters"]) bag.add("filters", m);
    }
  }
  for (const { key, field } of missingRefs(r, state)) bag.add(key === "view" ? "tab" : key, `field "${field}" does not exist`);
}

function missingRefs(r: Resource, state: string) {
  const known = new Set(["_id", ...r.fields.map((f) => f.id)]);
  return fieldsNamed(parseViewState(state)).filter((ref) => !known.has(ref.field));
}

function isOwner(user: Principal, v: ViewRecord): boolean {
  return v.owner !== null && user.tokenId === v.owner;
}

/** Whether `user` may see the view: the resource's reader, and for a private view its owner or an admin. */
export function canSeeView(user: Principal, v: ViewRecord, r: Resource): boolean {
  if (!canRead(user, r)) return false;
  return !v.private || isOwner(user, v) || hasScope(user, "admin");
}

/** Whether `user` may change or delete the view: its owner (with write scope) or an admin. */
export function canChangeView(user: Principal, v: ViewRecord): boolean {
  return hasScope(user, "admin") || (hasScope(user, "write") && isOwner(user, v));
}

/**
 * The view as the API answers it: its own fields, its state spelled as the explorer's URL spells
 * it (`tab` for `view`; `filters` as an object, `fields` as a list; `q`, `filters`, `sort`,
 * `fields` and `tab` always), `missing_fields` it names that the resource no longer has, and
 * `query`: the explorer's query string opening it, without those fields.
 */
export function viewWire(v: ViewRecord, r: Resource) {
  const view = parseViewState(v.state);
  const missing = [...new Set(missingRefs(r, v.state).map((ref) => ref.field))];
  const opened = withoutFields({ ...view, resource_id: v.resourceId }, new Set(missing));
  const state: Record<string, unknown> = { q: view.q, filters: view.filters, sort: view.sort, fields: view.fields, tab: view.tab };
  const params = new URLSearchParams(v.state);
  for (const key of new Set(params.keys())) {
    if (key === "view" || key in state) continue;
    const all = params.getAll(key).filter((x) => x !== "");
    state[key] = all.length > 1 ? all : all[0] ?? "";
  }
  return {
    id: v.id,
    resource_id: v.resourceId,
    name: v.name,
    description: v.description,
    private: v.private,
    owner: v.ownerName,
    created: v.created,
    modified: v.modified,
    ...state,
    missing_fields: missing,
    query: serializeViewState(opened).toString(),
  };
}

/** Views in the order lists show them: by name, then oldest first. */
export function byName(a: ViewRecord, b: ViewRecord): number {
  return a.name.localeCompare(b.name, "en", { sensitivity: "base" }) || a.created.localeCompare(b.created) || a.id.localeCompare(b.id);
}
