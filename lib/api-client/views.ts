// Saved views (datastore_view_*, our extension): a named view of a resource, opened at /v/<id>.
// Shapes as docs/api.md "Saved views" documents them.
import { queryOptions } from "@tanstack/react-query";
import { serializeViewState, type ViewState } from "@/lib/view-state";
import { callAction } from "./fetch";
import { noRetryOnClientErrors, queryKeys, type Session } from "./queries";

export type SavedView = {
  id: string;
  resource_id: string;
  name: string;
  description: string;
  private: boolean;
  owner: string | null;
  created: string;
  modified: string;
  /** Fields the view names that its resource no longer has: left out of `query`. */
  missing_fields: string[];
  /** The explorer's query string that opens the view. */
  query: string;
};

export const viewKeys = {
  all: (s: Session) => [...queryKeys.all(s), "datastore_view"] as const,
  list: (s: Session, resourceId: string | null) => [...viewKeys.all(s), "list", resourceId] as const,
  one: (s: Session, id: string) => [...viewKeys.all(s), "show", id] as const,
};

/** The views of one resource, or (null) every view the session may see. */
export function viewsQuery(s: Session, resourceId: string | null) {
  return queryOptions({
    queryKey: viewKeys.list(s, resourceId),
    queryFn: ({ signal }) => callAction<SavedView[]>("datastore_view_list", resourceId ? { resource_id: resourceId } : {}, s, signal),
    staleTime: 30_000,
    retry: noRetryOnClientErrors,
  });
}

export function viewQuery(s: Session, id: string) {
  return queryOptions({
    queryKey: viewKeys.one(s, id),
    queryFn: ({ signal }) => callAction<SavedView>("datastore_view_show", { id }, s, signal),
    retry: noRetryOnClientErrors,
  });
}

/** The explorer's state as the create action takes it: the URL's parameters, `tab` for `view`.
 *  A saved view shows the current data: `as_of` is a link's, not a view's. */
export function viewParams(view: ViewState): Record<string, string | string[]> {
  const params: Record<string, string | string[]> = {};
  const url = serializeViewState({ ...view, resource_id: null, record: null, offset: 0, as_of: null });
  for (const key of new Set(url.keys())) {
    const all = url.getAll(key);
    params[key === "view" ? "tab" : key] = all.length > 1 ? all : all[0];
  }
  return params;
}

export type NewView = { name: string; description: string; private: boolean };

export function createView(s: Session, view: ViewState, details: NewView): Promise<SavedView> {
  return callAction<SavedView>("datastore_view_create", { resource_id: view.resource_id, ...details, ...viewParams(view) }, s);
}

/** The short address of a view, and the page that shows only it (for an <iframe>). */
export function viewLinks(origin: string, id: string) {
  return { link: `${origin}/v/${encodeURIComponent(id)}`, embed: `${origin}/embed/v/${encodeURIComponent(id)}` };
}
