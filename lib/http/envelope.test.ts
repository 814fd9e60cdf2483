import { describe, expect, it } from "vitest";
import { success } from "./envelope";

describe("success envelope", () => {
  it("streams a big page as exactly the JSON a small one would be", async () => {
    const records = Array.from({ length: 2345 }, (_, i) => ({ _id: i + 1, name: `row ${i}`, tricky: '"records": [] ]' }));
    const result = { resource_id: "r", records, filters: { records: [] }, total: 2345 };
    const res = success("http://h/help", result);
    expect(res.headers.get("content-type")).toBe("application/json;charset=utf-8");
    expect(JSON.parse(await res.text())).toEqual({ help: "http://h/help", success: true, result });
  });

  it("answers a small page in one piece", async () => {
    const res = success("h", { records: [{ a: 1 }] });
    expect(await res.json()).toEqual({ help: "h", success: true, result: { records: [{ a: 1 }] } });
  });
});
