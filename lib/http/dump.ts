// GET /datastore/dump/{resource_id_or_alias} (contract §9): the whole table, or a search of
// it, as a csv, tsv, json or xml download, streamed: each pull of the response takes one chunk
// of rows from engine.iterate() (one snapshot), so memory holds one chunk however big the
// table. Check order as for search: parameters (400) → resource exists (404) → may read (403)
// → names against the fields (400).
import { getDatastore } from "../datastore";
import { findResource, requireRead, type ActionContext } from "../datastore/context";
import type { Resource } from "../datastore/engine";
import { DatastoreError, ErrorBag } from "../datastore/errors";
import { delimitedLine, rowLine, xmlRow, type ColumnInfo } from "../datastore/formats";
import { bindSearch, parseSearchParams } from "../datastore/search-query";
import { asBool, asInt, isUnset, type Params } from "../datastore/validate";
import { errorStatus, retryHeaders } from "./envelope";
import { clientKey, queryParams, type ApiRequest } from "./params";

const CONTENT_TYPES = {
  csv: "text/csv; charset=utf-8",
  tsv: "text/tab-separated-values; charset=utf-8",
  json: "application/json; charset=utf-8",
  xml: "text/xml; charset=utf-8",
} as const;

type DumpFormat = keyof typeof CONTENT_TYPES;

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
  const headers: Record<string, string> = { "content-type": "application/json; charset=utf-8" };
  if (e instanceof DatastoreError) {
    const mapped = errorStatus(e);
    // CKAN's dump answers 400 for what the action API answers 409 (a refused parameter).
    status = mapped.status === 409 ? 400 : mapped.status;
    error = { __type: mapped.type, ...e.details };
    Object.assign(headers, retryHeaders(e));
  } else {
    console.error("datastore dump: internal error", e);
  }
  return new Response(JSON.stringify({ success: false, error }), { status, headers });
}

interface Plan {
  resource: Resource;
  format: DumpFormat;
  bom: boolean;
  chunks: AsyncIterableIterator<unknown[][]>;
  cols: ColumnInfo[];
}

async function plan(ctx: ActionContext, idOrAlias: string, params: Params): Promise<Plan> {
  const bag = new ErrorBag();
  const format = String(isUnset(params.format) ? "csv" : params.format).toLowerCase();
  if (!Object.hasOwn(CONTENT_TYPES, format)) bag.add("format", `Value must be one of ${Object.keys(CONTENT_TYPES).join(", ")}`);
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
  return { resource, format: format as DumpFormat, bom, chunks: ctx.engine.iterate(resource, bound.query), cols: bound.columns as ColumnInfo[] };
}

function body(
  first: IteratorResult<unknown[][]>,
  chunks: AsyncIterator<unknown[][]>,
  render: Rendering,
  bom: boolean,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let pending: IteratorResult<unknown[][]> | undefined = first;
  let head = (bom ? "\uFEFF" : "") + render.head;
  let done = false;
  const finish = async () => {
    if (done) return;
    done = true;
    await chunks.return?.();
  };
  return new ReadableStream<Uint8Array>({
    // Pulled only when the consumer has room: a slow client holds one chunk, not the table.
    async pull(controller) {
      try {
        const next = pending ?? (await chunks.next());
        pending = undefined;
        let out = head;
        head = "";
        if (next.done) {
          done = true;
          controller.enqueue(encoder.encode(out + render.tail));
          controller.close();
          return;
        }
        for (const row of next.value) out += render.row(row);
        controller.enqueue(encoder.encode(out));
      } catch (e) {
        console.error("datastore dump: failed while streaming", e);
        await finish().catch(() => undefined);
        controller.error(e);
      }
    },
    cancel: finish,
  });
}

export async function handleDump(request: ApiRequest, idOrAlias: string): Promise<Response> {
  try {
    const { engine, tokens } = await getDatastore();
    const user = await tokens.authenticate(request.headers.get("authorization"));
    const params = queryParams(new URL(request.url).searchParams);
    const { resource, format, bom, chunks, cols } = await plan({ engine: engine.forClient(clientKey(request, user)), tokens, user }, idOrAlias, params);
    // The first chunk is read here, so a query the engine rejects is still an error status.
    const first = await chunks.next();
    const headers: Record<string, string> = {
      "content-type": CONTENT_TYPES[format],
      "content-disposition": `attachment; filename="${resource.id}.${format}"`,
    };
    if (resource.private) headers["cache-control"] = "private, no-store";
    return new Response(body(first, chunks, rendering(format, cols), bom), { headers });
  } catch (e) {
    return errorResponse(e);
  }
}
