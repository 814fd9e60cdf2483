import { describe, expect, it } from "vitest";
import type { Whoami } from "@/lib/api-client";
import { mayDo, mayDoSomewhere } from "./may";

const token = (over: Partial<Whoami>): Whoami => ({ scope: "write", name: "t", resources: null, actions: null, ...over });

describe("mayDo", () => {
  it("refuses without a token, before whoami answers, and to a read token", () => {
    expect(mayDo(null, "datastore_upsert", "a")).toBe(false);
    expect(mayDo(undefined, "datastore_upsert", "a")).toBe(false);
    expect(mayDo(token({ scope: null }), "datastore_upsert", "a")).toBe(false);
    expect(mayDo(token({ scope: "read" }), "datastore_upsert", "a")).toBe(false);
  });

  it("lets a write or admin token without limits do every action on every resource, new ones too", () => {
    for (const scope of ["write", "admin"] as const) {
      expect(mayDo(token({ scope }), "resource_delete", "a")).toBe(true);
      expect(mayDo(token({ scope }), "datastore_create", null)).toBe(true);
    }
  });

  it("keeps a token limited to resources to those, and to no new resource", () => {
    const me = token({ resources: ["a", "b"] });
    expect(mayDo(me, "datastore_upsert", "a")).toBe(true);
    expect(mayDo(me, "datastore_upsert", "b")).toBe(true);
    expect(mayDo(me, "datastore_upsert", "c")).toBe(false);
    expect(mayDo(me, "datastore_create", null)).toBe(false);
  });

  it("keeps a token limited to actions to those, whatever the resource", () => {
    const me = token({ actions: ["datastore_upsert"] });
    expect(mayDo(me, "datastore_upsert", "a")).toBe(true);
    expect(mayDo(me, "datastore_records_delete", "a")).toBe(false);
    expect(mayDo(token({ scope: "admin", actions: ["resource_patch"] }), "datastore_audit_list", "a")).toBe(false);
  });

  it("asks both limits together", () => {
    const me = token({ resources: ["a"], actions: ["datastore_upsert"] });
    expect(mayDo(me, "datastore_upsert", "a")).toBe(true);
    expect(mayDo(me, "datastore_upsert", "b")).toBe(false);
    expect(mayDo(me, "resource_patch", "a")).toBe(false);
  });

  it("an empty limit (no resources, no actions) allows nothing", () => {
    expect(mayDo(token({ resources: [] }), "datastore_upsert", "a")).toBe(false);
    expect(mayDo(token({ actions: [] }), "datastore_upsert", "a")).toBe(false);
  });
});

describe("mayDoSomewhere", () => {
  it("asks of the token's own resources when it is limited to some", () => {
    expect(mayDoSomewhere(token({ resources: ["a"] }), "datastore_upsert")).toBe(true);
    expect(mayDoSomewhere(token({ resources: [] }), "datastore_upsert")).toBe(false);
    expect(mayDoSomewhere(token({ resources: ["a"], actions: ["datastore_search"] }), "datastore_upsert")).toBe(false);
  });

  it("asks of the scope and actions alone otherwise", () => {
    expect(mayDoSomewhere(token({}), "datastore_create")).toBe(true);
    expect(mayDoSomewhere(token({ scope: "read" }), "datastore_create")).toBe(false);
    expect(mayDoSomewhere(undefined, "datastore_create")).toBe(false);
  });
});
