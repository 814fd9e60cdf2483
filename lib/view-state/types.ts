// The explorer's view, named as the datastore_search API names it (resource_id, q, filters,
// limit, offset, sort, fields). Pure data: shared by the URL codec, the API client and the UI.

export type Scalar = string | number | boolean | null;

/** Exactly the `filters` object of datastore_search: one value = equality, a list = any of. */
export type Filters = Record<string, Scalar | Scalar[]>;

export type SortClause = { field: string; desc: boolean };

export type ViewState = {
  resource_id: string | null;
  /** What the user typed in the search box (the request turns it into a prefix query). */
  q: string;
  filters: Filters;
  limit: number;
  offset: number;
  /** CKAN sort string, e.g. `delay desc, origin`; empty = the API's default order. */
  sort: string;
  /** Columns to show, in order; null = all of them. */
  fields: string[] | null;
};

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 32000;
export const LIMIT_CHOICES = [10, 25, 50, 100, 500, 1000] as const;

export const DEFAULT_VIEW: ViewState = {
  resource_id: null,
  q: "",
  filters: {},
  limit: DEFAULT_LIMIT,
  offset: 0,
  sort: "",
  fields: null,
};
