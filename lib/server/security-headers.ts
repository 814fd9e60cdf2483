// Security headers for every answer, pages and API alike, set in one place by the server.
// Next's production pages hydrate with inline scripts, so script-src allows inline but never
// eval (development's fast refresh needs eval); nothing may frame the app but the embed pages
// (/embed…), which the app itself and the origins in DATASTORE_EMBED_ORIGINS may. Images may
// also come from the map tile server, when one is configured (DATASTORE_MAP_TILES).
import { config } from "../config";

/** The embed pages: /embed (a view by its parameters) and /embed/v/<id> (a saved view). */
export function isEmbedPath(pathname: string): boolean {
  return pathname === "/embed" || pathname.startsWith("/embed/");
}

/** `embed`: the headers of an embed page, which the configured origins may frame. */
export function securityHeaders(dev: boolean, embed = false): [string, string][] {
  const tiles = config.mapTiles;
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob:${tiles ? ` ${new URL(tiles).origin}` : ""}`,
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    embed ? `frame-ancestors 'self'${config.embedOrigins.map((o) => ` ${o}`).join("")}` : "frame-ancestors 'none'",
  ].join("; ");
  return [
    ["Content-Security-Policy", csp],
    ["X-Content-Type-Options", "nosniff"],
    ["Referrer-Policy", "strict-origin-when-cross-origin"],
    // an allow-list cannot be said in X-Frame-Options: an embed page has frame-ancestors alone
    ...(embed ? [] : [["X-Frame-Options", "DENY"] as [string, string]]),
    ["Permissions-Policy", "camera=(), microphone=(), geolocation=()"],
  ];
}
