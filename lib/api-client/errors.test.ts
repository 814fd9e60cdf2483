import { describe, expect, it } from "vitest";
import { ApiError, errorFromBody, explainError } from "./errors";
import { queryKeys } from "./queries";

describe("errorFromBody", () => {
  it("reads the CKAN envelope", () => {
    const e = errorFromBody(409, {
      success: false,
      error: { __type: "Validation Error", filters: ['invalid value "nope"'] },
    });
    expect(e.kind).toBe("invalid");
    expect(e.details).toEqual({ filters: ['invalid value "nope"'] });
    expect(explainError(e).body).toContain('filters: invalid value "nope"');
  });
  it("reads a bare 400 string", () => {
    expect(errorFromBody(400, "Bad request - JSON Error").message).toBe("Bad request - JSON Error");
  });
  it("explains a private resource with what to do", () => {
    const e = errorFromBody(403, { success: false, error: { __type: "Authorization Error", message: "Access denied" } });
    const text = explainError(e, "this resource");
    expect(text.title).toBe("This resource is private");
    expect(text.body).toContain("Token");
  });
  it("never shows a stack or status for network errors", () => {
    const e = new ApiError("network", 0, "Failed to fetch");
    const text = explainError(e);
    expect(text).toEqual({ title: "The server could not be reached", body: "Check your connection, then try again." });
    // Nothing of the error itself: not its message, name, status or stack.
    const shown = `${text.title} ${text.body}`;
    for (const part of [e.message, e.name, String(e.status), ...e.stack!.split("\n").slice(1, 3).map((l) => l.trim())]) expect(shown).not.toContain(part);
  });
});

describe("query keys", () => {
  it("never contain the token", () => {
    const key = queryKeys.search({ token: "secret-token", epoch: 3 }, { resource_id: "r", limit: 10 });
    expect(JSON.stringify(key)).not.toContain("secret-token");
    expect(key).toContain(3);
  });
});
