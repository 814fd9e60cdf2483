import { describe, expect, it } from "vitest";
import { ApiError, errorFromBody, errorLines, explainError } from "./errors";
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
    const text = explainError(e, "resource");
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

describe("errorLines", () => {
  it("names the parameter of each message (resource_patch, datastore_create)", () => {
    expect(errorLines(new ApiError("invalid", 409, "Validation Error", { name: ["Missing value"], private: ["Must be true or false"] }))).toEqual([
      "name: Missing value",
      "private: Must be true or false",
    ]);
  });

  it("gives the cast error of a refused row verbatim, without the row number", () => {
    const error = errorFromBody(409, {
      success: false,
      error: { __type: "Validation Error", records: ['invalid input syntax for type double precision: "abc"'], records_row: 0 },
    });
    expect(errorLines(error)).toEqual(['invalid input syntax for type double precision: "abc"']);
  });

  it("collects the messages of every parameter, a key not found as it is worded", () => {
    const error = errorFromBody(409, { error: { __type: "Validation Error", key: ['key "[\'ZZZ\']" not found'], fields: ['fields "a", "b" do not exist'] } });
    expect(errorLines(error)).toEqual(['key "[\'ZZZ\']" not found', 'fields: fields "a", "b" do not exist']);
  });

  it("leaves out what is not a message (an integrity error's data)", () => {
    expect(errorLines(errorFromBody(400, { error: { __type: "Integrity Error", message: "constraint failed", data: { row: 1 } } }))).toEqual([
      "constraint failed",
    ]);
  });

  it("falls back to the message, or to the error type", () => {
    expect(errorLines(new ApiError("forbidden", 403, "Access denied: nope"))).toEqual(["Access denied: nope"]);
    expect(errorLines(errorFromBody(403, { error: { __type: "Authorization Error", message: "Access denied" } }))).toEqual(["Access denied"]);
    expect(errorLines(errorFromBody(409, { error: { __type: "Validation Error" } }))).toEqual(["Validation Error"]);
    expect(errorLines(new ApiError("network", 0, "Failed to fetch"))).toEqual(["Failed to fetch"]);
    expect(errorLines(new Error("boom"))).toEqual(["boom"]);
  });
});

describe("query keys", () => {
  it("never contain the token", () => {
    const key = queryKeys.search({ token: "secret-token", epoch: 3 }, { resource_id: "r", limit: 10 });
    expect(JSON.stringify(key)).not.toContain("secret-token");
    expect(key).toContain(3);
  });
});
