// GET /datastore/dump/{resource_id_or_alias} (contract §9) through the one pipeline: the dump
// (lib/datastore/dump.ts) streamed as a download, each pull of the response one chunk of rows,
// so a slow client holds one chunk, not the table.
import { openDump, type Dump, type DumpFormat } from "../datastore/dump";
import { queryParams, type ApiRequest } from "./params";
import { serve } from "./pipeline";

const CONTENT_TYPES: Record<DumpFormat, string> = {
  csv: "text/csv; charset=utf-8",
  tsv: "text/tab-separated-values; charset=utf-8",
  json: "application/json; charset=utf-8",
  xml: "text/xml; charset=utf-8",
  ndjson: "application/x-ndjson; charset=utf-8",
  geojson: "application/geo+json; charset=utf-8",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  parquet: "application/vnd.apache.parquet",
};

function body({ pieces, close }: Pick<Dump, "pieces" | "close">): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    // Pulled only when the consumer has room.
    async pull(controller) {
      try {
        const next = await pieces.next();
        if (next.done) controller.close();
        else controller.enqueue(typeof next.value === "string" ? encoder.encode(next.value) : next.value);
      } catch (e) {
        console.error("datastore dump: failed while streaming", e);
        controller.error(e);
      }
    },
    async cancel() {
      await pieces.return();
      await close();
    },
  });
}

export async function handleDump(request: ApiRequest, idOrAlias: string): Promise<Response> {
  return serve(request, {
    name: "datastore_dump",
    params: (_request, url) => queryParams(url.searchParams),
    run: ({ ctx, params }) => openDump(ctx, idOrAlias, params),
    answer(dump) {
      const { resource, format } = dump;
      const headers: Record<string, string> = {
        "content-type": CONTENT_TYPES[format],
        "content-disposition": `attachment; filename="${resource.id}.${format}"`,
      };
      if (resource.private) headers["cache-control"] = "private, no-store";
      return new Response(body(dump), { headers });
    },
    // CKAN's dump answers 400 for what the action API answers 409 (a refused parameter).
    failure: { validationStatus: 400 },
  });
}
