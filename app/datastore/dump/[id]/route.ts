// GET /datastore/dump/{resource_id or alias}: a whole table or a search of it, streamed.
import { handleDump } from "@/lib/http/dump";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

async function handle(request: Request, { params }: Context): Promise<Response> {
  return handleDump(request, (await params).id);
}

export { handle as GET, handle as HEAD, handle as POST, handle as PUT, handle as PATCH, handle as DELETE, handle as OPTIONS };
