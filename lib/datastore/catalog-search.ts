// resource_search's question to an engine, and the words a resource is found by: its id, name,
// description, aliases, field ids and field labels, folded (lower case, accents dropped) and
// split into words the same way on every engine, so `q` finds the same resources on each. A
// word of `q` matches the start of a word of the resource (`bird` finds "Birdstrikes").
import type { Resource } from "./engine";

/** What resource_search may order by (CKAN's own names, and `rows`), as catalog columns. */
export const CATALOG_ORDER = {
  id: "id",
  name: "name",
  description: "description",
  url_type: "url_type",
  format: "id", // every resource's format is CSV: the order is the tie-break's
  created: "created",
  last_modified: "modified",
  row_count: "row_count",
  rows: "row_count",
} as const;

export type CatalogColumn = (typeof CATALOG_ORDER)[keyof typeof CATALOG_ORDER];

/** Fields `query: "field:term"` may name, and the catalog column each one reads. */
export const CATALOG_CONTAINS = { id: "id", name: "name", description: "description", url_type: "url_type" } as const;

export interface CatalogQuery {
  /** Folded words (queryWords), each the start of one of a resource's words. */
  words: string[];
  /** `query` terms: the column's text, lower-cased, contains `term` (lower case). */
  contains: { column: (typeof CATALOG_CONTAINS)[keyof typeof CATALOG_CONTAINS]; term: string }[];
  /** Private resources too (a token that may read them). */
  readPrivate: boolean;
  /** Only these ids (a token limited to resources); absent: any. */
  only?: string[];
  /** Only resources with a data table (datastore_active). */
  hasTable: boolean;
  orderBy: CatalogColumn;
  desc: boolean;
  limit: number;
  offset: number;
}

export interface CatalogPage {
  /** Every match, paging aside. */
  count: number;
  resources: Resource[];
}

/** Text folded to its words: lower case, accents dropped, split at anything but a letter or digit. */
export function foldWords(text: string): string[] {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** The words of `q`, at most 32 (a longer question adds nothing a person types). */
export function queryWords(q: string): string[] {
  return [...new Set(foldWords(q))].slice(0, 32);
}

/** The text an engine indexes for a resource: its distinct words, space-separated. */
export function catalogWords(r: Pick<Resource, "id" | "name" | "description" | "aliases" | "fields">): string {
  const parts = [r.id, r.name, r.description, ...r.aliases];
  for (const f of r.fields) {
    parts.push(f.id);
    const label = f.info?.label;
    if (typeof label === "string") parts.push(label);
  }
  return [...new Set(foldWords(parts.join(" ")))].join(" ");
}
