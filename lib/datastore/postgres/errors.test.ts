// SQLSTATEs in the datastore's words (errors.ts), without a server.
import { describe, expect, it } from "vitest";
import { DatastoreError, DatastoreUnavailable } from "../errors";
import { CastError } from "../types";
import { toDatastoreError } from "./errors";

const pgError = (code: string, message = "m") => Object.assign(new Error(message), { code });

describe("toDatastoreError", () => {
  it("answers a statement timeout as a query that took too long", () => {
    const e = toDatastoreError(pgError("57014", "canceling statement due to statement timeout"), 1000) as DatastoreError;
    expect(e.kind).toBe("validation");
    expect(e.details).toEqual({ query: [expect.stringMatching(/^Query took too long \(over 1000 ms\)/)] });
  });

  it("answers a statement timeout in a write transaction as a write rolled back, naming its limit", () => {
    const e = toDatastoreError(pgError("57014", "canceling statement due to statement timeout"), 1000, 60_000) as DatastoreError;
    expect(e.kind).toBe("validation");
    expect(e.details).toEqual({ database: [expect.stringMatching(/^the write took longer than 60000 ms \(DATASTORE_WRITE_TIMEOUT_MS\) and was rolled back: nothing was written/)] });
  });

  it("answers a unique violation as CKAN's integrity error, with PostgreSQL's message", () => {
    const e = toDatastoreError(pgError("23505", "duplicate key value"), 1000) as DatastoreError;
    expect(e.details).toEqual({ constraints: ["Cannot insert records or create index because of uniqueness constraint"], info: { orig: "duplicate key value", pgcode: "23505" } });
  });

  it("answers data errors and cast errors as 409 on the query", () => {
    for (const code of ["22P02", "22003", "22007", "22008", "22023"]) {
      expect((toDatastoreError(pgError(code, "bad"), 1000) as DatastoreError).details).toEqual({ query: ["bad"] });
    }
    expect((toDatastoreError(new CastError("nope"), 1000) as DatastoreError).details).toEqual({ query: ["nope"] });
  });

  it("answers a deadlock, a serialization failure or a lock wait as busy, to try again", () => {
    for (const code of ["40001", "40P01", "55P03"]) {
      const e = toDatastoreError(pgError(code), 1000) as DatastoreError;
      expect(e.retryAfter).toBe(1);
    }
  });

  it("answers a lost or refused connection as unavailable", () => {
    for (const e of [pgError("08006"), pgError("57P01"), pgError("ECONNREFUSED"), pgError("ECONNRESET"), new Error("Connection terminated unexpectedly")]) {
      expect(toDatastoreError(e, 1000)).toBeInstanceOf(DatastoreUnavailable);
    }
  });

  it("answers prepared statements lost between transactions as unavailable, naming the pooler's setting", () => {
    for (const code of ["26000", "42P05"]) {
      const e = toDatastoreError(pgError(code, 'prepared statement "x" already exists'), 1000);
      expect(e).toBeInstanceOf(DatastoreUnavailable);
      expect((e as Error).message).toMatch(/pool_mode = session/);
    }
  });

  it("passes anything else through", () => {
    const e = pgError("XX000");
    expect(toDatastoreError(e, 1000)).toBe(e);
  });
});
