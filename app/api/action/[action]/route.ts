// POST/GET /api/action/{action}: CKAN's action API. The handler (lib/http) reads the
// parameters, authenticates, runs the action and wraps the answer; this file only routes.
import { handleAction } from "@/lib/http/action-handler";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ action: string }> };

async function handle(request: Request, { params }: Context): Promise<Response> {
  return handleAction(request, (await params).action);
}

export { handle as GET, handle as HEAD, handle as POST, handle as PUT, handle as PATCH, handle as DELETE, handle as OPTIONS };
