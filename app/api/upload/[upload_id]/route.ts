// GET /api/upload/<upload_id>: where an upload stands; DELETE: drops it, or cancels its import.
import { handleUploadDelete, handleUploadShow } from "@/lib/http/upload-handler";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ upload_id: string }> };

export async function GET(request: Request, { params }: Context): Promise<Response> {
  return handleUploadShow(request, (await params).upload_id);
}

export async function DELETE(request: Request, { params }: Context): Promise<Response> {
  return handleUploadDelete(request, (await params).upload_id);
}
