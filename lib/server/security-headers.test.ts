import { afterEach, describe, expect, it } from "vitest";
import { isEmbedPath, securityHeaders } from "./security-headers";

const csp = (embed: boolean) => new Map(securityHeaders(false, embed)).get("Content-Security-Policy");

describe("framing", () => {
  afterEach(() => {
    delete process.env.DATASTORE_EMBED_ORIGINS;
  });

  it("no page may be framed but the embed pages, which the site itself and DATASTORE_EMBED_ORIGINS may frame", () => {
    process.env.DATASTORE_EMBED_ORIGINS = " https://news.example  https://*.example.org:8443 ";
    expect(csp(false)).toContain("frame-ancestors 'none'");
    expect(new Map(securityHeaders(false)).get("X-Frame-Options")).toBe("DENY");
    expect(csp(true)).toContain("frame-ancestors 'self' https://news.example https://*.example.org:8443");
    expect(new Map(securityHeaders(false, true)).has("X-Frame-Options")).toBe(false);
  });

  it("takes `*`, and nothing that is not an origin reaches the header", () => {
    process.env.DATASTORE_EMBED_ORIGINS = "*";
    expect(csp(true)).toMatch(/frame-ancestors 'self' \*(;|$)/);
    process.env.DATASTORE_EMBED_ORIGINS = "https://ok.example 'unsafe-inline' https://x.example;script-src javascript:alert(1) ftp://files.example";
    expect(csp(true)).toMatch(/frame-ancestors 'self' https:\/\/ok\.example(;|$)/);
    delete process.env.DATASTORE_EMBED_ORIGINS;
    expect(csp(true)).toMatch(/frame-ancestors 'self'(;|$)/);
  });

  it("the embed pages are /embed and what is under it", () => {
    expect(["/embed", "/embed/v/abc", "/embed/v"].map(isEmbedPath)).toEqual([true, true, true]);
    expect(["/", "/embedded", "/v/abc", "/api/action/datastore_search", "/x/embed"].map(isEmbedPath)).toEqual([false, false, false, false, false]);
  });
});
