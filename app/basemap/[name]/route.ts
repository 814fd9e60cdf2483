// GET /basemap/{world-110m | us-10m}: the Map tab's offline outlines (lib/http/basemap.ts).
import { handleBasemap } from "@/lib/http/basemap";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ name: string }> };

async function handle(request: Request, { params }: Context): Promise<Response> {
  return handleBasemap(request, (await params).name);
}

export { handle as GET, handle as HEAD };
