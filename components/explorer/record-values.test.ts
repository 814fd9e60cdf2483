import { describe, expect, it } from "vitest";
import type { DatastoreField } from "@/lib/api-client";
import { translator } from "@/lib/i18n";
import { draftOf, recordFromDraft, textToValue, valueToText } from "./record-values";

const fields: DatastoreField[] = [
  { id: "code", type: "text" },
  { id: "name", type: "text", info: { label: "Airport" } },
  { id: "runways", type: "int4" },
  { id: "lat", type: "float8" },
  { id: "open", type: "bool" },
  { id: "extra", type: "json" },
  { id: "tags", type: "_text" },
];
const names = (f: DatastoreField) => String(f.info?.label ?? f.id);
const stored = { _id: 3, code: "PDX", name: "Portland", runways: 3, lat: 45.59, open: true, extra: { a: [1, 2] }, tags: ["x"] };

describe("valueToText / textToValue", () => {
  it("shows stored values as text: null empty, JSON pretty-printed", () => {
    expect(valueToText(null, "int4")).toBe("");
    expect(valueToText(3, "int4")).toBe("3");
    expect(valueToText(false, "bool")).toBe("false");
    expect(valueToText({ a: 1 }, "json")).toBe('{\n  "a": 1\n}');
    expect(valueToText("plain", "json")).toBe('"plain"');
    expect(valueToText(["x"], "_text")).toBe('[\n  "x"\n]');
  });

  it("sends numbers when the text reads as one, else the text as typed for the API to refuse", () => {
    expect(textToValue(" 42 ", "int4")).toEqual({ ok: true, value: 42 });
    expect(textToValue("-1.5e3", "float8")).toEqual({ ok: true, value: -1500 });
    expect(textToValue("abc", "int4")).toEqual({ ok: true, value: "abc" });
    expect(textToValue("1.5", "int8")).toEqual({ ok: true, value: "1.5" });
    expect(textToValue("12,5", "numeric")).toEqual({ ok: true, value: "12,5" });
  });

  it("makes an empty box null, whatever the type; keeps text as typed", () => {
    for (const type of ["text", "int4", "bool", "json", "date"]) expect(textToValue("", type)).toEqual({ ok: true, value: null });
    expect(textToValue(" padded ", "text")).toEqual({ ok: true, value: " padded " });
  });

  it("reads true/false for yes/no fields and JSON for json and list fields", () => {
    expect(textToValue("true", "bool")).toEqual({ ok: true, value: true });
    expect(textToValue("false", "bool")).toEqual({ ok: true, value: false });
    expect(textToValue('{"b": null}', "json")).toEqual({ ok: true, value: { b: null } });
    expect(textToValue('["a", "b"]', "_text")).toEqual({ ok: true, value: ["a", "b"] });
    expect(textToValue("{oops", "json")).toEqual({ ok: false, message: "is not valid JSON" });
  });
});

describe("recordFromDraft", () => {
  it("editing: the key as stored plus only the changed fields", () => {
    const draft = { ...draftOf(fields, stored), name: "Portland Intl", lat: "", code: "ignored: key boxes are read-only" };
    expect(recordFromDraft(fields, draft, { original: stored, keys: ["code"], names })).toEqual({
      ok: true,
      record: { code: "PDX", name: "Portland Intl", lat: null },
      changed: 2,
    });
  });

  it("editing with nothing changed: the key alone, nothing counted", () => {
    expect(recordFromDraft(fields, draftOf(fields, stored), { original: stored, keys: ["code"], names })).toEqual({
      ok: true,
      record: { code: "PDX" },
      changed: 0,
    });
  });

  it("adding: every field with text, converted", () => {
    const draft = { ...draftOf(fields, null), code: "XYZ", runways: "2", open: "false", tags: '["a"]' };
    expect(recordFromDraft(fields, draft, { original: null, keys: ["code"], names })).toEqual({
      ok: true,
      record: { code: "XYZ", runways: 2, open: false, tags: ["a"] },
      changed: 4,
    });
  });

  it("refuses bad JSON by the field's name, sending nothing", () => {
    const draft = { ...draftOf(fields, stored), extra: "{", tags: "nope", name: "changed" };
    expect(recordFromDraft(fields, draft, { original: stored, keys: ["code"], names })).toEqual({
      ok: false,
      errors: ["extra is not valid JSON.", "tags is not valid JSON."],
    });
  });

  it("words the refusal in the reader's language", () => {
    const draft = { ...draftOf(fields, stored), extra: "{" };
    expect(recordFromDraft(fields, draft, { original: stored, keys: ["code"], names }, translator("fr", "fr-FR"))).toEqual({
      ok: false,
      errors: ["extra n’est pas du JSON valide."],
    });
  });
});
