// Our extension api_token_patch (admin): gives a token its own request budget (docs/api.md
// "Quotas"), or gives it back the default. The budget binds on every app server from the
// token's next request (lib/http/rate-limit.ts reads it from the token with the request).
import { TokenStore } from "../../auth/tokens";
import { recordWrite } from "../audit";
import { requireScope, type ActionContext } from "../context";
import { DatastoreError, ErrorBag } from "../errors";
import { isUnset, type Params } from "../validate";

/** A token's own budget: requests a minute (0: none), or null for DATASTORE_RATE_TOKEN's. */
export function ratePerMinute(v: unknown, bag: ErrorBag): number | null {
  if (v === null) return null;
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 0 || n > 1_000_000_000) {
    bag.add("rate_per_minute", "Must be a natural number (requests a minute; 0: not limited), or null for the default");
    return null;
  }
  return n;
}

export async function apiTokenPatch(ctx: ActionContext, params: Params) {
  const bag = new ErrorBag();
  const id = [params.id, params.jti].find((v) => !isUnset(v));
  if (typeof id !== "string") bag.add("id", "Missing value");
  const given = Object.hasOwn(params, "rate_per_minute");
  if (!given) bag.add("rate_per_minute", "Missing value");
  const rate = given ? ratePerMinute(params.rate_per_minute, bag) : null;
  bag.throwIfAny();
  requireScope(ctx, "admin", "api_token_patch");
  return ctx.engine.transaction(async (tx) => {
    const token = (await new TokenStore(tx.tokens).list()).find((t) => t.id === id);
    if (!token || !(await tx.tokens.setRate(token.id, rate))) throw DatastoreError.notFound("API token was not found.");
    await recordWrite(tx, ctx.user, { action: "api_token_patch", resourceId: null, detail: { token: token.name, id: token.id, rate_per_minute: rate } });
    return { ...token, rate_per_minute: rate };
  });
}
