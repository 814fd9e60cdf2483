// POST /api/upload/<upload_id>/import: loads an upload into a resource (new, append, replace),
// optionally answering NDJSON progress lines (Accept: application/x-ndjson).
import { handleUploadImport } from "@/lib/http/upload-handler";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ upload_id: string }> };

export async function POST(request: Request, { params }: Context): Promise<Response> {
  return handleUploadImport(request, (await params).upload_id);
}
