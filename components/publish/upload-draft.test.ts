import { describe, expect, it } from "vitest";
import type { UploadPreview } from "@/lib/api-client/upload";
import type { Whoami } from "@/lib/api-client";
import { mayDo, mayDoSomewhere } from "@/components/token/may";
import { importModes, importRequest, initialDraft, typeOptions } from "./upload-draft";

const preview: UploadPreview = {
  upload_id: "u1",
  filename: "places.csv",
  size: 40,
  format: "csv",
  columns: [
    { id: "zip", type: "int4" },
    { id: "city", type: "text" },
    { id: "pop", type: "int8" },
  ],
  records: [["02134", "Boston", "5000000000"]],
  notes: [],
  sampled_rows: 1,
};

describe("upload draft", () => {
  it("starts from the inferred types and the file name", () => {
    const d = initialDraft(preview);
    expect(d.name).toBe("places");
    expect(d.columns.map((c) => c.type)).toEqual(["int", "text", "int8"]);
    expect(typeOptions("int8")).toContain("int8");
    expect(typeOptions("int4")).not.toContain("int4");
  });

  it("sends the chosen ids, types and key for a new resource", () => {
    const d = initialDraft(preview);
    d.columns[0] = { ...d.columns[0], type: "text", key: true };
    d.columns[1] = { ...d.columns[1], id: " town " };
    d.description = "  ";
    expect(importRequest(d)).toEqual({
      mode: "new",
      name: "places",
      description: undefined,
      private: false,
      fields: [
        { from: "zip", id: "zip", type: "text" },
        { from: "city", id: "town", type: "text" },
        { from: "pop", id: "pop", type: "int8" },
      ],
      primary_key: ["zip"],
    });
  });

  it("appends with renames only, replaces with types and key, both keeping the resource's details", () => {
    const d = { ...initialDraft(preview), mode: "append" as const, target: "r1" };
    d.columns[0] = { ...d.columns[0], key: true };
    expect(importRequest(d)).toEqual({
      mode: "append",
      resource_id: "r1",
      fields: [
        { from: "zip", id: "zip" },
        { from: "city", id: "city" },
        { from: "pop", id: "pop" },
      ],
      primary_key: undefined,
    });
    const r = importRequest({ ...d, mode: "replace" });
    expect(r).toMatchObject({ mode: "replace", resource_id: "r1", primary_key: ["zip"] });
    expect(r).not.toHaveProperty("name");
  });

  it("offers the modes the token may import in, and starts in the first", () => {
    const modes = (me: Partial<Whoami>) => {
      const token: Whoami = { scope: "write", name: "t", resources: null, actions: null, ...me };
      return importModes((a, id) => mayDo(token, a, id), (a) => mayDoSomewhere(token, a));
    };
    expect(modes({})).toEqual(["new", "append", "replace"]);
    expect(modes({ scope: "read" })).toEqual([]);
    // a token limited to resources makes none
    expect(modes({ resources: ["r1"] })).toEqual(["append", "replace"]);
    expect(modes({ resources: ["r1"], actions: ["datastore_upsert"] })).toEqual(["append"]);
    expect(modes({ actions: ["datastore_create"] })).toEqual(["new", "replace"]);
    expect(initialDraft(preview, "append").mode).toBe("append");
  });
});
