import { handleAction } from "@/lib/http/action-handler";

type Ctx = { params: Promise<{ action: string }> };

async function handle(request: Request, { params }: Ctx) {
  return handleAction(request, (await params).action);
}

export { handle as GET, handle as POST, handle as PUT, handle as PATCH, handle as DELETE };
