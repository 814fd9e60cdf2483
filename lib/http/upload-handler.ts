// The upload endpoint (docs/loading.md) through the one pipeline: POST /api/upload
// streams a file to disk and answers a preview, POST /api/upload/<id>/import loads it
// (optionally answering NDJSON progress lines), GET /api/upload/<id> says where it stands (its
// import's progress, from any app server), DELETE /api/upload/<id> drops it or cancels its
// import. The rules (write scope, ownership, the size limit, one import at a time, cancel or
// commit) are lib/upload/uploads.ts's.
import { createUpload, deleteUpload, showUpload, startImport } from "../upload/uploads";
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

/** GET /api/upload/<id>: the upload's state (ready, importing with its progress, imported). */
export function handleUploadShow(request: ApiRequest, id: string): Promise<Response> {
  return serve(request, {
    name: "upload_show",
    params: () => ({}),
    run: ({ ctx }) => showUpload(ctx, id),
  });
}

/** DELETE /api/upload/<id>: removes the file, or cancels an import of it (409 once committed). */
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
