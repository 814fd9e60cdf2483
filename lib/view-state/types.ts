// The explorer's view, named as the datastore_search API names it (resource_id, q, filters,
// limit, offset, sort, fields). Pure data: shared by the URL codec, the API client and the UI.

import type { OperatorValues, Scalar } from "../datastore/operators";
import type { AsOf } from "./as-of";
import type { PivotSettings } from "./pivot";

export type { Scalar };

/** A field's operators (CKAN 2.12's, plus our `x_` extensions), as the API's operator registry
 *  defines them; several keys are ANDed. */
export type Operators = OperatorValues;

/** A field's condition: equality, operators, or a list of either meaning any of them. */
export type FieldFilter = Scalar | Operators | (Scalar | Operators)[];

/**
 * The `filters` object of datastore_search: keys are ANDed; a key is a field (`$$x` for a field
 * named `$x`) or a group, `$or` / `$and`, of such objects. The API also takes a top-level list
 * (an OR of objects): the URL codec reads it as `{"$or": [...]}`, which means the same.
 */
export type Filters = { [key: string]: FieldFilter | Filters[] };

export type SortClause = { field: string; desc: boolean };

/** The explorer's views of one result, as tabs; `view=` in the URL. */
export const TABS = ["table", "summary", "chart", "map", "pivot"] as const;
export type Tab = (typeof TABS)[number];

export const CHART_TYPES = ["bar", "line", "scatter", "histogram"] as const;
export type ChartType = (typeof CHART_TYPES)[number];
export const CHART_AGGS = ["count", "sum", "avg"] as const;
export type ChartAgg = (typeof CHART_AGGS)[number];
export const PERIODS = ["day", "week", "month", "quarter", "year"] as const;
export type Period = (typeof PERIODS)[number];

/** The Chart tab's settings (`chart`, `x`, `y`, `agg`, `period` in the URL); null = not chosen,
 *  the chart picks a sensible default for the resource. */
export type ChartSettings = { type: ChartType; x: string | null; y: string | null; agg: ChartAgg; period: Period | null };

/** The Map tab's coordinate fields (`lat`, `lon` in the URL); null = found by name. */
export type MapSettings = { lat: string | null; lon: string | null };

export type ViewState = {
  resource_id: string | null;
  /** The table as it was at this version or time (lib/view-state/as-of.ts); null = the current data. */
  as_of: AsOf | null;
  /** What the user typed in the search box (the request turns it into a prefix query). */
  q: string;
  filters: Filters;
  limit: number;
  offset: number;
  /** CKAN sort string, e.g. `delay desc, origin`; empty = the API's default order. */
  sort: string;
  /** Columns to show, in order; null = all of them. */
  fields: string[] | null;
  tab: Tab;
  /** The `_id` of the record shown in the record view, if open. */
  record: number | null;
  chart: ChartSettings;
  map: MapSettings;
  /** The Pivot tab's rows, columns and measure (`rows`, `columns`, `measure`; lib/view-state/pivot.ts). */
  pivot: PivotSettings;
};

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 32000;
export const LIMIT_CHOICES = [10, 25, 50, 100, 500, 1000] as const;

export const DEFAULT_VIEW: ViewState = {
  resource_id: null,
  as_of: null,
  q: "",
  filters: {},
  limit: DEFAULT_LIMIT,
  offset: 0,
  sort: "",
  fields: null,
  tab: "table",
  record: null,
  chart: { type: "bar", x: null, y: null, agg: "count", period: null },
  map: { lat: null, lon: null },
  pivot: { rows: [], columns: null, measure: { fn: "count", field: null } },
};
