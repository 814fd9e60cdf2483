// The API's routes as the App Router defines them: every app/**/route.ts, its `[param]`
// segments matched here by the same rule Next uses, so `npm start` and `next start` share one
// list of routes (the files) and one set of handlers (their exports).
import fs from "node:fs";
import path from "node:path";
import type { ApiRequest } from "../http/params";

export type RouteHandler = (request: ApiRequest, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

interface Route {
  pattern: RegExp;
  names: string[];
  exports: Record<string, unknown>;
}

export interface Match {
  /** The handler the route file exports for the method, if any. */
  handler(method: string): RouteHandler | undefined;
  params: Record<string, string>;
}

function routeFiles(dir: string, base: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) routeFiles(file, base, out);
    else if (/^route\.(ts|js)$/.test(entry.name)) out.push(path.relative(base, dir));
  }
  return out;
}

/** Loads every route module under `appDir`; returns a matcher for request paths. */
export async function loadRoutes(appDir: string): Promise<(pathname: string) => Match | null> {
  const routes: Route[] = [];
  for (const dir of routeFiles(appDir, appDir)) {
    const segments = dir.split(path.sep).filter((s) => !/^\(.*\)$/.test(s)); // (groups) are not in the URL
    const names: string[] = [];
    const pattern = segments
      .map((s) => {
        const param = /^\[([^\].]+)\]$/.exec(s);
        if (!param) return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        names.push(param[1]);
        return "([^/]+)";
      })
      .join("/");
    const file = fs.readdirSync(path.join(appDir, dir)).find((f) => /^route\.(ts|js)$/.test(f))!;
    const exports = (await import(path.join(appDir, dir, file))) as Record<string, unknown>;
    routes.push({ pattern: new RegExp(`^/${pattern}$`), names, exports });
  }
  return (pathname) => {
    for (const route of routes) {
      const m = route.pattern.exec(pathname);
      if (!m) continue;
      // Callers check that the path decodes (badPath) before matching.
      const params = Object.fromEntries(route.names.map((n, i) => [n, decodeURIComponent(m[i + 1])]));
      return { params, handler: (method) => route.exports[method] as RouteHandler | undefined };
    }
    return null;
  };
}
