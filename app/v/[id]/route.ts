// GET /v/{id}: a saved view's short address. It sends the browser to /v?id={id}, the page that
// reads the view with the token in use and opens the explorer on it: a route, not a page, so
// `npm start` (which serves prerendered pages) answers it as `next start` does.
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

async function handle(_request: Request, { params }: Context): Promise<Response> {
  const { id } = await params;
  return new Response(null, { status: 307, headers: { location: `/v?id=${encodeURIComponent(id)}`, "cache-control": "no-store" } });
}

export { handle as GET, handle as HEAD };
