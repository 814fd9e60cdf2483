// A dump (contract §9) in the datastore's words: the whole table, or a search of it, as csv,
// tsv, json or xml text, in pieces of one chunk of rows each from engine.iterate() (one
// snapshot), so memory holds one chunk however big the table. Check order as for search:
// parameters (409; a dump's answer makes it 400) → exists (404) → may read (403) → names
// against the fields. lib/http/dump.ts streams the pieces.
import { findResource, requireRead, type ActionContext } from "./context";
import type { Resource } from "./engine";
import { ErrorBag } from "./errors";
import { delimitedLine, rowLine, xmlRow, type ColumnInfo } from "./formats";
import { bindSearch, parseSearchParams } from "./search-query";
import { asBool, asInt, isUnset, type Params } from "./validate";

export const DUMP_FORMATS = ["csv", "tsv", "json", "xml"] as const;
export type DumpFormat = (typeof DUMP_FORMATS)[number];

const XML_OPEN = '<data xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n';

interface Rendering {
  head: string;
  row: (row: unknown[]) => string;
  tail: string;
}

function rendering(format: DumpFormat, cols: ColumnInfo[]): Rendering {
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
  }
}

export interface Dump {
  resource: Resource;
  format: DumpFormat;
  /** The text, a chunk of rows a piece; `return()` ends the read early. */
  pieces: AsyncGenerator<string, void, undefined>;
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

  const resource = await findResource(ctx, idOrAlias);
  requireRead(ctx, resource, "datastore dump");
  // CKAN's dump sorts by _id unless told otherwise, even when searching.
  if (!p.sort?.length && !p.distinct) p.sort = ["_id"];
  const bound = bindSearch(resource, { ...p, limit, includeTotal: false });
  const chunks = ctx.engine.iterate(resource, bound.query);
  const first = await chunks.next();
  const render = rendering(format, bound.columns as ColumnInfo[]);
  async function* pieces(): AsyncGenerator<string, void, undefined> {
    try {
      let head = (bom ? "\uFEFF" : "") + render.head;
      for (let next = first; !next.done; next = await chunks.next()) {
        let out = head;
        head = "";
        for (const row of next.value) out += render.row(row);
        yield out;
      }
      yield head + render.tail;
    } finally {
      await chunks.return?.();
    }
  }
  // A generator never pulled skips its finally on return(): close() ends the engine's reader
  // (a cursor and its transaction, or a private reader) whether or not a piece was taken.
  return { resource, format, pieces: pieces(), close: async () => void (await chunks.return?.()) };
}
