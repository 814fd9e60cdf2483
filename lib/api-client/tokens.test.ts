import { afterEach, describe, expect, it, vi } from "vitest";
import { queryKeys } from "./queries";
import { ACTIONS } from "../datastore/actions";
import { createToken, revokeToken, TOKEN_ACTIONS, tokensQuery } from "./tokens";

function stubFetch(result: unknown) {
  const fetch = vi.fn(async () => new Response(JSON.stringify({ success: true, result }), { status: 200 }));
  vi.stubGlobal("fetch", fetch);
  return (call = 0) => {
    const [url, init] = fetch.mock.calls[call] as unknown as [string, RequestInit];
    return { url, headers: init.headers as Record<string, string>, body: JSON.parse(init.body as string) };
  };
}

afterEach(() => vi.unstubAllGlobals());

describe("token fetchers", () => {
  it("asks for an expiry in days, or none", async () => {
    const sent = stubFetch({ token: "dsx_x" });
    await createToken({ token: "admin" }, { name: "bot", scope: "write", expiresInDays: 30 });
    await createToken({ token: "admin" }, { name: "forever", scope: "read", expiresInDays: null });
    expect(sent(0)).toEqual({
      url: "/api/action/api_token_create",
      headers: expect.objectContaining({ Authorization: "admin" }),
      body: { name: "bot", scope: "write", expires_in: 30, unit: 86400 },
    });
    expect(sent(1).body).toEqual({ name: "forever", scope: "read" });
  });

  it("asks for limits only when some are chosen", async () => {
    const sent = stubFetch({ token: "dsx_x" });
    await createToken({ token: "admin" }, { name: "partner", scope: "write", expiresInDays: null, resources: ["r1"], actions: ["datastore_upsert"] });
    await createToken({ token: "admin" }, { name: "all", scope: "write", expiresInDays: null, resources: [], actions: [] });
    expect(sent(0).body).toEqual({ name: "partner", scope: "write", resources: ["r1"], actions: ["datastore_upsert"] });
    expect(sent(1).body).toEqual({ name: "all", scope: "write" });
  });

  it("offers only actions the API has", () => {
    const offered: string[] = [...TOKEN_ACTIONS.read, ...TOKEN_ACTIONS.write];
    expect(offered.filter((a) => !(a in ACTIONS))).toEqual([]);
  });

  it("revokes by id", async () => {
    const sent = stubFetch(null);
    await revokeToken({ token: "admin" }, "1234");
    expect(sent().url).toBe("/api/action/api_token_revoke");
    expect(sent().body).toEqual({ id: "1234" });
  });

  it("keys the list under the session's epoch, never under the token", () => {
    const session = { token: "secret-admin", epoch: 7 };
    const key = tokensQuery(session).queryKey;
    expect(key.slice(0, 2)).toEqual([...queryKeys.all(session)]);
    expect(JSON.stringify(key)).not.toContain("secret-admin");
  });
});
