// The upload endpoint (docs/loading.md) through the one pipeline: POST /api/upload
// streams a file to disk and answers a preview, POST /api/upload/<id>/import loads it
// (optionally answering NDJSON progress lines), DELETE /api/upload/<id> drops it. The rules
// (write scope, ownership, the size limit, one import at a time) are lib/upload/uploads.ts's.
import { createUpload, deleteUpload, startImport } from "../upload/uploads";
import { progressStream, success } from "./envelope";
import { bodyParams, queryParams, type ApiRequest } from "./params";
import { serve } from "./pipeline";

/** POST /api/upload?filename=…[&format=…&encoding=…&delimiter=…]: the raw body is the file. */
export function handleUpload(request: ApiRequest): Promise<Response> {
  return serve(request, {
    name: "upload",
    params: (_request, url) => queryParams(url.searchParams),
    run: ({ ctx, params, body }) => createUpload(ctx, params, { chunks: body, declaredBytes: Number(request.headers.get("content-length") ?? 0), signal: request.signal }),
    streamsBody: true,
  });
}

/** DELETE /api/upload/<id>: removes the file (and stops an import of it that is running). */
export function handleUploadDelete(request: ApiRequest, id: string): Promise<Response> {
  return serve(request, {
    name: "upload_delete",
    params: () => ({}),
    run: ({ ctx }) => deleteUpload(ctx, id),
  });
}

/** POST /api/upload/<id>/import: the JSON body says how (lib/upload/import-params.ts). */
export function handleUploadImport(request: ApiRequest, id: string): Promise<Response> {
  return serve(request, {
    name: "upload_import",
    params: (req) => bodyParams(req),
    run: ({ ctx, params }) => startImport(ctx, id, params),
    async answer(job, { help }) {
      if ((request.headers.get("accept") ?? "").includes("application/x-ndjson")) {
        return progressStream((send) => job.run((line) => send({ progress: line })), job.stop);
      }
      // The client going away stops the import.
      request.signal?.addEventListener("abort", job.stop);
      try {
        return success(help, await job.run());
      } finally {
        request.signal?.removeEventListener("abort", job.stop);
      }
    },
  });
}
