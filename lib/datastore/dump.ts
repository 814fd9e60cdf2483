// A dump (contract §9) in the datastore's words: the whole table, or a search of it, as csv,
// tsv, json or xml text, or (ours) ndjson, geojson, an xlsx workbook or a parquet file, in pieces of one chunk
// of rows each from engine.iterate() (one snapshot), so memory holds one chunk however big the
// table. Check order as for search:
// parameters (409; a dump's answer makes it 400) → exists (404) → may read (403) → names
// against the fields. lib/http/dump.ts streams the pieces.
import { findResource, requireAction, requireRead, type ActionContext } from "./context";
import type { Resource, SearchQuery } from "./engine";
import { ErrorBag } from "./errors";
import { dumpConflict } from "./dump-conflict";
import { delimitedLine, objectJson, rowLine, xmlRow, type ColumnInfo } from "./formats";
import { featureJson, geoPlan, type GeoPlan } from "./geojson";
import { bindSearch, parseSearchParams } from "./search-query";
import { parseAsOf, readAgain, resolveAsOf, resourceAt } from "./history";
import { asBool, asInt, isUnset, type Params } from "./validate";
import { XLSX_MAX_ROWS, xlsxWriter } from "./xlsx";

export const DUMP_FORMATS = ["csv", "tsv", "json", "xml", "ndjson", "geojson", "xlsx", "parquet"] as const;
export type DumpFormat = (typeof DUMP_FORMATS)[number];

const XML_OPEN = '<data xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n';

interface Rendering {
  head: string;
  row: (row: unknown[]) => string;
  tail: string;
}

function rendering(format: Exclude<DumpFormat, "xlsx" | "parquet">, cols: ColumnInfo[], geo: GeoPlan | null): Rendering {
  switch (format) {
    case "csv":
    case "tsv": {
      const d = format === "csv" ? "," : "\t";
      // CKAN writes the header with Python's csv module (\r\n) and the rows as COPY does (\n).
      return { head: delimitedLine(cols.map((c) => c.id), d).replace(/\n$/, "\r\n"), row: (r) => rowLine(cols, r, d), tail: "" };
    }
    case "json": {
      let first = true;
      const fields = JSON.stringify(cols.map((c) => ({ id: c.id, type: c.type })));
      return {
        head: `{"fields": ${fields}, "records": [`,
        row: (r) => {
          const text = `${first ? "\n" : ",\n"}${JSON.stringify(r)}`;
          first = false;
          return text;
        },
        tail: "\n]}\n",
      };
    }
    case "xml":
      return { head: XML_OPEN, row: (r) => xmlRow(cols, r), tail: "</data>\n" };
    case "ndjson": {
      const object = objectJson(cols);
      return { head: "", row: (r) => `${object(r)}\n`, tail: "" };
    }
    case "geojson": {
      let first = true;
      const feature = featureJson(geo!, cols);
      return {
        head: '{"type": "FeatureCollection", "features": [',
        row: (r) => {
          const text = `${first ? "\n" : ",\n"}${feature(r)}`;
          first = false;
          return text;
        },
        tail: "\n]}\n",
      };
    }
  }
}

export interface Dump {
  resource: Resource;
  format: DumpFormat;
  /** The text (bytes for xlsx), a chunk of rows a piece; `return()` ends the read early. */
  pieces: AsyncGenerator<string | Uint8Array, void, undefined>;
  /** Ends the dump early: the engine's reader is released. */
  close(): Promise<void>;
}

/** Checks a dump and reads its first chunk, so a query the engine rejects is an error before
 *  any of the answer is written. */
export async function openDump(ctx: ActionContext, idOrAlias: string, params: Params): Promise<Dump> {
  const bag = new ErrorBag();
  const format = String(isUnset(params.format) ? "csv" : params.format).toLowerCase() as DumpFormat;
  if (!DUMP_FORMATS.includes(format)) bag.add("format", `Value must be one of ${DUMP_FORMATS.join(", ")}`);
  const bom = asBool(params.bom, false);
  // All rows unless a limit is given: no default page size and no clamp for a download.
  const limit = asInt(params.limit, "limit", bag, -1, "Must be a natural number");
  const p = parseSearchParams({ ...params, limit: undefined }, bag, { unlimited: true });
  bag.throwIfAny();
  const asOf = parseAsOf(params.as_of);

  const resource = await findResource(ctx, idOrAlias);
  requireRead(ctx, resource, "datastore dump");
  // A dump reads what datastore_search reads, to a token limited to actions.
  requireAction(ctx, "datastore_search");
  // CKAN's dump sorts by _id unless told otherwise, even when searching.
  if (!p.sort?.length && !p.distinct) p.sort = ["_id"];
  const at = asOf && (await resolveAsOf(ctx.engine, resource, asOf));
  // The past is read with its own field list (past-fields.ts).
  const then = await resourceAt(ctx.engine, resource, at);
  const bound = bindSearch(then, { ...p, limit, includeTotal: false });
  if (at && !at.current) bound.query.asOf = at.version;
  const cols = bound.columns as ColumnInfo[];
  const geo = format === "geojson" ? geoPlan(then, cols, { lat: params.lat, lon: params.lon }) : null;
  if (format === "xlsx") await mustFitASheet(ctx, resource, bound.query);
  let chunks = ctx.engine.iterate(resource, bound.query);
  let first = await chunks.next();
  if (at && (await readAgain(ctx.engine, resource, at))) {
    await chunks.return?.();
    bound.query.asOf = at.version;
    // The copy read before the write counts the rows of before it: read the resource again.
    chunks = ctx.engine.iterate((await ctx.engine.getResource(resource.id)) ?? resource, bound.query);
    first = await chunks.next();
  }
  async function* text(render: Rendering): AsyncGenerator<string, void, undefined> {
    let head = (bom ? "\uFEFF" : "") + render.head;
    for await (const rows of readAhead()) {
      let out = head;
      head = "";
      for (const row of rows) out += render.row(row);
      yield out;
    }
    yield head + render.tail;
  }
  async function* bytes(file: { head(): Uint8Array; rows(rows: unknown[][]): Uint8Array; tail(): Uint8Array }): AsyncGenerator<Uint8Array, void, undefined> {
    yield file.head();
    for await (const rows of readAhead()) {
      const piece = file.rows(rows);
      if (piece.length) yield piece;
    }
    yield file.tail();
  }
  /** The chunks, the next one asked for before this one is written out: a read worker (or
   *  PostgreSQL) reads it while this thread writes, so two chunks are held at most. */
  async function* readAhead(): AsyncGenerator<unknown[][], void, undefined> {
    for (let next = first; !next.done; ) {
      const coming = chunks.next();
      // Its failure is taken when awaited below; until then it must not count as unhandled.
      coming.catch(() => {});
      yield next.value;
      next = await coming;
    }
  }
  async function* pieces(): AsyncGenerator<string | Uint8Array, void, undefined> {
    try {
      if (format === "xlsx") yield* bytes(xlsxWriter(cols, resource.name || resource.id));
      // Loaded when asked for: its Parquet libraries cost every start otherwise.
      else if (format === "parquet") yield* bytes((await import("./parquet")).parquetWriter(cols));
      else yield* text(rendering(format, cols, geo));
    } finally {
      await chunks.return?.();
    }
  }
  // A generator never pulled skips its finally on return(): close() ends the engine's reader
  // (a cursor and its transaction, or a private reader) whether or not a piece was taken.
  return { resource, format, pieces: pieces(), close: async () => void (await chunks.return?.()) };
}

/** A workbook's sheet holds XLSX_MAX_ROWS rows under its header: past that, a 409 before any
 *  byte is sent (counted unless a `limit` already keeps it under). */
async function mustFitASheet(ctx: ActionContext, resource: Resource, query: SearchQuery): Promise<void> {
  if (query.limit >= 0 && query.limit <= XLSX_MAX_ROWS) return;
  const { total = 0 } = await ctx.engine.search(resource, { ...query, limit: 0, offset: 0, includeTotal: true, totalEstimationThreshold: undefined });
  const rows = Math.max(0, total - query.offset);
  if (rows > XLSX_MAX_ROWS) {
    throw dumpConflict(
      "format",
      `xlsx: an Excel sheet holds at most ${XLSX_MAX_ROWS.toLocaleString("en")} rows under its header, and this download has ${rows.toLocaleString("en")}: narrow it (q, filters), set a limit, or choose csv`,
    );
  }
}
