import { describe, expect, it } from "vitest";
import { DatastoreError, fromWire, toWire } from "../datastore/errors";
import { EncodedJson } from "../datastore/formats";
import { bodyOf, failure, success } from "./envelope";

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

describe("answers built in one piece", () => {
  it("are read as any Response, by every method, and their bytes are there for a server to write", async () => {
    const answer = () => success("h", { n: 1 });
    const text = '{"help":"h","success":true,"result":{"n":1}}';
    expect(await answer().text()).toBe(text);
    expect(await answer().json()).toEqual(JSON.parse(text));
    expect(new TextDecoder().decode(await answer().bytes())).toBe(text);
    expect(new TextDecoder().decode(await answer().arrayBuffer())).toBe(text);
    expect(await new Response(answer().body).text()).toBe(text);
    expect(await answer().clone().text()).toBe(text);
    const read = answer();
    expect(read.bodyUsed).toBe(false);
    await read.text();
    expect(read.bodyUsed).toBe(true);
    expect(new TextDecoder().decode(bodyOf(answer()))).toBe(text);
  });
});

describe("failure envelope", () => {
  it("answers an error that crossed from a thread (a read worker's, an import's) as it would have: a busy store's Retry-After kept", async () => {
    // Through structured clone, as a worker's message goes.
    const crossed = fromWire(structuredClone(toWire(DatastoreError.busy())));
    expect(crossed).toBeInstanceOf(DatastoreError);
    const res = failure("h", crossed);
    expect([res.status, res.headers.get("retry-after")]).toEqual([409, "1"]);
    expect(await res.json()).toEqual({ help: "h", success: false, error: { __type: "Validation Error", database: ["the database is busy with another write; try again"] } });
  });
});
