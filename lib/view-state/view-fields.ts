// The fields a view names (its columns, sort, filters and each tab's settings), each with the
// URL parameter that names it, and the view without some of them: a saved view whose fields
// were dropped since says which, and opens with the rest.
import { parseSort, formatSort } from "./sort";
import type { Filters, ViewState } from "./types";

export type FieldRef = { key: string; field: string };

/** The field a filters key names, or null for a group (`$or`, `$and`); `$$x` names `$x`. */
function keyField(key: string): string | null {
  if (key.startsWith("$$")) return key.slice(1);
  return key.startsWith("$") ? null : key;
}

function filterFields(filters: Filters, out: Set<string>): void {
  for (const [key, value] of Object.entries(filters)) {
    const field = keyField(key);
    if (field !== null) out.add(field);
    else if (Array.isArray(value)) for (const group of value as Filters[]) filterFields(group, out);
  }
}

function withoutFilterFields(filters: Filters, gone: Set<string>): Filters {
  const out: Filters = {};
  for (const [key, value] of Object.entries(filters)) {
    const field = keyField(key);
    if (field !== null) {
      if (!gone.has(field)) out[key] = value;
      continue;
    }
    const groups = (value as Filters[]).map((g) => withoutFilterFields(g, gone)).filter((g) => Object.keys(g).length > 0);
    if (groups.length) out[key] = groups;
  }
  return out;
}

/** Every field the view names, once per parameter, in the URL's order. */
export function fieldsNamed(view: ViewState): FieldRef[] {
  const refs: FieldRef[] = [];
  const add = (key: string, field: string | null | undefined) => {
    if (field && !refs.some((r) => r.key === key && r.field === field)) refs.push({ key, field });
  };
  const inFilters = new Set<string>();
  filterFields(view.filters, inFilters);
  for (const f of inFilters) add("filters", f);
  for (const c of parseSort(view.sort)) add("sort", c.field);
  for (const f of view.fields ?? []) add("fields", f);
  add("x", view.chart.x);
  add("y", view.chart.y);
  add("lat", view.map.lat);
  add("lon", view.map.lon);
  for (const k of view.pivot.rows) add("rows", k.field);
  add("columns", view.pivot.columns?.field);
  add("measure", view.pivot.measure.field);
  return refs;
}

/** The view with every mention of the `gone` fields left out (a setting falls back to its default). */
export function withoutFields(view: ViewState, gone: Set<string>): ViewState {
  if (gone.size === 0) return view;
  const keep = (f: string | null) => (f !== null && gone.has(f) ? null : f);
  const fields = view.fields?.filter((f) => !gone.has(f)) ?? null;
  const { pivot } = view;
  const sort = parseSort(view.sort);
  return {
    ...view,
    filters: withoutFilterFields(view.filters, gone),
    sort: sort.some((c) => gone.has(c.field)) ? formatSort(sort.filter((c) => !gone.has(c.field))) : view.sort,
    fields: fields && fields.length ? fields : null,
    chart: { ...view.chart, x: keep(view.chart.x), y: keep(view.chart.y) },
    map: { lat: keep(view.map.lat), lon: keep(view.map.lon) },
    pivot: {
      rows: pivot.rows.filter((k) => !gone.has(k.field)),
      columns: pivot.columns && gone.has(pivot.columns.field) ? null : pivot.columns,
      measure: pivot.measure.field !== null && gone.has(pivot.measure.field) ? { fn: "count", field: null } : pivot.measure,
    },
  };
}
