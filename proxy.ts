// What every answer needs before Next's router sees the request, when Next serves (`next
// start`, `next dev`): the security headers, and CKAN's bare 400 for a path that is not valid
// percent-encoding (Next's router would answer a plain-text 500). `npm start` applies the same
// two (lib/server/app-server.ts) from the same definitions.
import { NextResponse, type NextRequest } from "next/server";
import { badPath } from "@/lib/http/envelope";
import { isEmbedPath, securityHeaders } from "@/lib/server/security-headers";

const headers = securityHeaders(process.env.NODE_ENV === "development");
const embedHeaders = securityHeaders(process.env.NODE_ENV === "development", true);

export function proxy(request: NextRequest): Response {
  const response = badPath(request.nextUrl.pathname) ?? NextResponse.next();
  for (const [name, value] of isEmbedPath(request.nextUrl.pathname) ? embedHeaders : headers) response.headers.set(name, value);
  return response;
}
