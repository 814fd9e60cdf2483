import { describe, expect, it } from "vitest";
import { EncodedJson } from "../datastore/formats";
import { success } from "./envelope";

const encode = (v: unknown) => new EncodedJson(new TextEncoder().encode(JSON.stringify(v)));

describe("success envelope", () => {
  it("splices encoded records in as they are, small or big, in one piece or in parts", async () => {
    for (const n of [1, 2345]) {
      const records = Array.from({ length: n }, (_, i) => ({ _id: i + 1, name: `row ${i} é`, tricky: '"records": [] ]' }));
      const result = { resource_id: "r", filters: { records: [] }, total: n };
      const res = success("http://h/help", { ...result, records: encode(records) });
      expect(res.headers.get("content-type")).toBe("application/json;charset=utf-8");
      const text = await res.text();
      expect(text.length > 64 * 1024).toBe(n > 1);
      expect(JSON.parse(text)).toEqual({ help: "http://h/help", success: true, result: { ...result, records } });
    }
  });

  it("answers plain values as JSON", async () => {
    const res = success("h", { records: [{ a: 1 }], q: "__encoded_x_0" });
    expect(await res.json()).toEqual({ help: "h", success: true, result: { records: [{ a: 1 }], q: "__encoded_x_0" } });
  });
});
