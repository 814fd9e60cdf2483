import { describe, expect, it, vi } from "vitest";

describe("branded classes", () => {
  it("answer instanceof for objects made by another copy of their module, as Next's bundles make", async () => {
    const first = await import("./datastore/errors");
    vi.resetModules();
    const second = await import("./datastore/errors");
    expect(second.DatastoreError).not.toBe(first.DatastoreError);
    const e = first.DatastoreError.field("x", "bad");
    expect(e instanceof second.DatastoreError).toBe(true);
    expect(e instanceof second.DatastoreUnavailable).toBe(false);
    expect(new Error("plain") instanceof second.DatastoreError).toBe(false);
  });

  it("keep a subclass apart from its superclass", async () => {
    const { ImportError, ImportInterrupted } = await import("./import/source");
    expect(new ImportInterrupted() instanceof ImportError).toBe(true);
    expect(new ImportError("x") instanceof ImportInterrupted).toBe(false);
  });
});
