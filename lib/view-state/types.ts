// The explorer's view, named as the datastore_search API names it (resource_id, q, filters,
// limit, offset, sort, fields). Pure data: shared by the URL codec, the API client and the UI.

export type Scalar = string | number | boolean | null;

/** A field's operators (CKAN 2.12's, plus our `x_` extensions); several keys are ANDed. */
export type Operators = {
  eq?: Scalar | Scalar[];
  gt?: Scalar;
  gte?: Scalar;
  lt?: Scalar;
  lte?: Scalar;
  /** true: NULL or ""; false: anything else. */
  x_empty?: boolean;
  /** None of these (rows with an empty value pass). */
  x_not_in?: Scalar | Scalar[];
};

/** A field's condition: equality, operators, or a list of either meaning any of them. */
export type FieldFilter = Scalar | Operators | (Scalar | Operators)[];

/**
 * The `filters` object of datastore_search: keys are ANDed; a key is a field (`$$x` for a field
 * named `$x`) or a group, `$or` / `$and`, of such objects. The API also takes a top-level list
 * (an OR of objects): the URL codec reads it as `{"$or": [...]}`, which means the same.
 */
export type Filters = { [key: string]: FieldFilter | Filters[] };

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
