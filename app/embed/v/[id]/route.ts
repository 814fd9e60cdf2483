// GET /embed/v/{id}: a saved view for an <iframe>. It sends the frame to /embed/v?id={id}, the
// page that reads the view and shows it alone (a route, not a page, as /v/{id}).
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

async function handle(_request: Request, { params }: Context): Promise<Response> {
  const { id } = await params;
  return new Response(null, { status: 307, headers: { location: `/embed/v?id=${encodeURIComponent(id)}`, "cache-control": "no-store" } });
}

export { handle as GET, handle as HEAD };
