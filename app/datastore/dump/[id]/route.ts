import { handleDump } from "@/lib/http/dump";

type Ctx = { params: Promise<{ id: string }> };

export async function GET(request: Request, { params }: Ctx): Promise<Response> {
  return handleDump(request, (await params).id);
}
