// The `_table_metadata` pseudo-resource: one row per readable table and alias
// (`_id, name, alias_of, oid`), searched in memory — it is as small as the catalog.
import { canRead, type ActionContext } from "../context";
import type { Filter, Resource, SearchOutput, SearchQuery } from "../engine";
import { pyStr } from "../filters";
import { termsOf } from "../full-text";
import { conditionMatches } from "../operators";

export async function tableMetadataResource(ctx: ActionContext) {
  const resource: Resource = {
    id: "_table_metadata",
    name: "_table_metadata",
    description: "Tables and aliases in the DataStore",
    private: false,
    urlType: "datastore",
    active: true,
    fields: [
      { id: "name", type: "text" },
      { id: "alias_of", type: "text" },
      { id: "oid", type: "int4" },
    ],
    primaryKey: [],
    indexes: [],
    aliases: [],
    rowCount: 0,
    created: "",
    modified: "",
  };
  const rows: Record<string, unknown>[] = [];
  (await ctx.engine.listResources())
    .filter((r) => r.active && canRead(ctx.user, r))
    .forEach((r, i) => {
      rows.push({ name: r.id, alias_of: null, oid: i + 1 });
      for (const a of r.aliases) rows.push({ name: a, alias_of: r.id, oid: i + 1 });
    });
  rows.forEach((row, i) => (row._id = i + 1));

  function search(query: SearchQuery): SearchOutput {
    let matched = rows.filter((row) => query.filters.every((f) => matches(f, row)));
    for (const c of query.fts) {
      const wanted = c.tree ? termsOf(c.tree) : null;
      matched = matched.filter((row) => {
        if (!wanted) return false;
        const text = String(c.field ? row[c.field] : `${row.name} ${row.alias_of ?? ""}`).toLowerCase();
        return wanted.every((w) => text.includes(w.toLowerCase()));
      });
    }
    for (const s of [...query.sort].reverse()) {
      matched = [...matched].sort((a, b) => {
        const x = a[s.field] as string | number | null;
        const y = b[s.field] as string | number | null;
        if (x === y) return 0;
        if (x === null || x === undefined) return s.nullsFirst ? -1 : 1;
        if (y === null || y === undefined) return s.nullsFirst ? 1 : -1;
        return (x < y ? -1 : 1) * (s.desc ? -1 : 1);
      });
    }
    const page = matched.slice(query.offset, query.offset + query.limit);
    return {
      rows: page.map((row) => query.columns.map((c) => (c.startsWith("rank") ? 0 : row[c] ?? null))),
      total: matched.length,
      totalEstimated: false,
      lastId: query.lastId ? (page.at(-1)?._id as number | undefined) : undefined,
    };
  }
  return { resource, search };
}

/** A filter tree over one in-memory row, compared as text or numbers as the column is. */
function matches(f: Filter, row: Record<string, unknown>): boolean {
  if (f.op === "and" || f.op === "or") return f.op === "and" ? f.of.every((x) => matches(x, row)) : f.of.some((x) => matches(x, row));
  const cell = row[f.field] as string | number | null;
  return conditionMatches(cell, f, (v) => (v === null ? null : typeof cell === "number" ? Number(v) : pyStr(v)));
}
