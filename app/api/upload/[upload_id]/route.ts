// DELETE /api/upload/<upload_id>: drops an upload not wanted any more.
import { handleUploadDelete } from "@/lib/http/upload-handler";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ upload_id: string }> };

export async function DELETE(request: Request, { params }: Context): Promise<Response> {
  return handleUploadDelete(request, (await params).upload_id);
}
