// Runs before routing, for the API and dump paths only. A path that is not valid
// percent-encoding (`/api/action/%zz`) would make Next answer a bare 500 while decoding the
// route's parameter; answer CKAN's bare "Bad request" 400 instead (contract §1: never a 500).
import { NextResponse, type NextRequest } from "next/server";

export function proxy(request: NextRequest) {
  try {
    decodeURIComponent(request.nextUrl.pathname);
  } catch {
    return new NextResponse(JSON.stringify("Bad request - the path is not valid percent-encoding"), {
      status: 400,
      headers: { "content-type": "application/json;charset=utf-8" },
    });
  }
  return NextResponse.next();
}

export const config = { matcher: ["/api/:path*", "/datastore/:path*"] };
