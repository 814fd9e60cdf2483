// Security headers for every answer, pages and API alike, set in one place by the server.
// Next's production pages hydrate with inline scripts, so script-src allows inline but never
// eval (development's fast refresh needs eval); nothing may frame the app. Images may also come
// from the map tile server, when one is configured (DATASTORE_MAP_TILES).
import { config } from "../config";

export function securityHeaders(dev: boolean): [string, string][] {
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
    "frame-ancestors 'none'",
  ].join("; ");
  return [
    ["Content-Security-Policy", csp],
    ["X-Content-Type-Options", "nosniff"],
    ["Referrer-Policy", "strict-origin-when-cross-origin"],
    ["X-Frame-Options", "DENY"],
    ["Permissions-Policy", "camera=(), microphone=(), geolocation=()"],
  ];
}
