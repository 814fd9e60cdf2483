// GET /datastore/dump/{resource_id_or_alias} (contract §9): the whole table, or a search of
// it, as a csv, tsv, json or xml download, streamed: a ReadableStream pulls a chunk of rows
// at a time from engine.iterate() (its own read-only connection, one snapshot), so memory
// holds one chunk however big the table. Check order as for search: parameters (400) →
// resource exists (404) → may read (403) → names against the fields (400).
import { getDatastore } from "../datastore";
import { findResource, requireRead, type ActionContext } from "../datastore/context";
import type { Resource } from "../datastore/engine";
import { DatastoreError, ErrorBag } from "../datastore/errors";
import { delimitedLine, rowLine, xmlRow, type ColumnInfo } from "../datastore/formats";
import { bindSearch, parseSearchParams } from "../datastore/search-query";
import { CastError } from "../datastore/types";
import { asBool, asInt, isUnset, type Params } from "../datastore/validate";
import { queryParams, type ApiRequest } from "./params";

const CONTENT_TYPES = {
  csv: "text/csv; charset=utf-8",
  tsv: "text/tab-separated-values; charset=utf-8",
  json: "application/json; charset=utf-8",
  xml: "text/xml; charset=utf-8",
} as const;

type DumpFormat = keyof typeof CONTENT_TYPES;

/** Characters of output gathered before a chunk is handed to the response. */
const CHUNK_CHARS = 64 * 1024;

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

function errorResponse(e: unknown): Response {
  let status = 500;
  let error: Record<string, unknown> = { __type: "Internal Server Error", message: "Internal Server Error" };
  if (e instanceof DatastoreError) {
    status = { validation: 400, integrity: 400, not_found: 404, authorization: 403 }[e.kind];
    const type = { validation: "Validation Error", integrity: "Validation Error", not_found: "Not Found Error", authorization: "Authorization Error" }[e.kind];
    error = { __type: type, ...e.details };
  } else if (e instanceof CastError) {
    status = 400;
    error = { __type: "Validation Error", query: [e.message] };
  } else if (/^fts5: phrase queries are not supported/.test((e as Error)?.message ?? "")) {
    status = 400; // a search word FTS5 still reads as a phrase (see sqlite/sql.ts)
    error = { __type: "Validation Error", query: ["a search word holds characters that split it in two; put a space there instead"] };
  } else {
    console.error("datastore dump: internal error", e);
  }
  return new Response(JSON.stringify({ success: false, error }), { status, headers: { "content-type": "application/json; charset=utf-8" } });
}

interface Plan {
  resource: Resource;
  format: DumpFormat;
  bom: boolean;
  rows: Iterator<unknown[]>;
  cols: ColumnInfo[];
}

function plan(ctx: ActionContext, idOrAlias: string, params: Params): Plan {
  const bag = new ErrorBag();
  const format = String(isUnset(params.format) ? "csv" : params.format).toLowerCase();
  if (!Object.hasOwn(CONTENT_TYPES, format)) bag.add("format", `Value must be one of ${Object.keys(CONTENT_TYPES).join(", ")}`);
  const bom = asBool(params.bom, false);
  // All rows unless a limit is given: no default page size and no clamp for a download.
  const limit = asInt(params.limit, "limit", bag, -1, "Must be a natural number");
  const p = parseSearchParams({ ...params, limit: undefined }, bag, { unlimited: true });
  bag.throwIfAny();

  const resource = findResource(ctx, idOrAlias);
  requireRead(ctx, resource, "datastore dump");
  // CKAN's dump sorts by _id unless told otherwise, even when searching.
  if (!p.sort?.length && !p.distinct) p.sort = ["_id"];
  const bound = bindSearch(resource, { ...p, limit, includeTotal: false });
  return { resource, format: format as DumpFormat, bom, rows: ctx.engine.iterate(resource, bound.query), cols: bound.columns as ColumnInfo[] };
}

function body(first: IteratorResult<unknown[]>, rows: Iterator<unknown[]>, render: Rendering, bom: boolean): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let next = first;
  let started = false;
  const finish = () => {
    if (!next.done) rows.return?.();
  };
  return new ReadableStream<Uint8Array>({
    // Pulled only when the consumer has room: a slow client holds one chunk, not the table.
    pull(controller) {
      try {
        let out = "";
        if (!started) {
          started = true;
          out = (bom ? "\uFEFF" : "") + render.head;
        }
        while (!next.done && out.length < CHUNK_CHARS) {
          out += render.row(next.value);
          next = rows.next();
        }
        if (next.done) {
          controller.enqueue(encoder.encode(out + render.tail));
          controller.close();
        } else {
          controller.enqueue(encoder.encode(out));
        }
      } catch (e) {
        console.error("datastore dump: failed while streaming", e);
        finish();
        controller.error(e);
      }
    },
    cancel: finish,
  });
}

export async function handleDump(request: ApiRequest, idOrAlias: string): Promise<Response> {
  try {
    const { engine, tokens } = getDatastore();
    const user = tokens.authenticate(request.headers.get("authorization"));
    const params = queryParams(new URL(request.url).searchParams);
    const { resource, format, bom, rows, cols } = plan({ engine, tokens, user }, idOrAlias, params);
    // The first row is read here, so a query the engine rejects is still an error status.
    const first = rows.next();
    const headers: Record<string, string> = {
      "content-type": CONTENT_TYPES[format],
      "content-disposition": `attachment; filename="${resource.id}.${format}"`,
    };
    if (resource.private) headers["cache-control"] = "private, no-store";
    return new Response(body(first, rows, rendering(format, cols), bom), { headers });
  } catch (e) {
    return errorResponse(e);
  }
}
