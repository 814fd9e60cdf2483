// POST /api/upload?filename=…: a file as the raw body, kept for an import (docs/loading.md,
// "Uploading over HTTP"). The handler (lib/http/upload-handler.ts) does the work; this file only routes.
import { handleUpload } from "@/lib/http/upload-handler";

export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  return handleUpload(request);
}
