import { describe, expect, it } from "vitest";
import { ApiError, errorFromBody } from "./errors";
import { writeErrorMessages } from "./records";

describe("writeErrorMessages", () => {
  it("gives the cast error of a refused row verbatim, without the row number", () => {
    const error = errorFromBody(409, {
      success: false,
      error: { __type: "Validation Error", records: ['invalid input syntax for type double precision: "abc"'], records_row: 0 },
    });
    expect(writeErrorMessages(error)).toEqual(['invalid input syntax for type double precision: "abc"']);
  });

  it("collects the messages of every parameter", () => {
    const error = errorFromBody(409, { error: { __type: "Validation Error", key: ['key "[\'ZZZ\']" not found'], fields: ["a", "b"] } });
    expect(writeErrorMessages(error)).toEqual(['key "[\'ZZZ\']" not found', "a", "b"]);
  });

  it("falls back to the message, or to the error type", () => {
    expect(writeErrorMessages(errorFromBody(403, { error: { __type: "Authorization Error", message: "Access denied" } }))).toEqual(["Access denied"]);
    expect(writeErrorMessages(errorFromBody(409, { error: { __type: "Validation Error" } }))).toEqual(["Validation Error"]);
    expect(writeErrorMessages(new ApiError("network", 0, "Failed to fetch"))).toEqual(["Failed to fetch"]);
    expect(writeErrorMessages(new Error("boom"))).toEqual(["boom"]);
  });
});
