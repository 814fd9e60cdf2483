import { describe, expect, it } from "vitest";
import type { TokenRecord } from "./engine";
import { TOKEN_COLUMNS, tokenRecord, tokenValues, type TokenRow } from "./token-row";

describe("token rows", () => {
  it("inserts each value under its own column, and reads the row back as the record", () => {
    const t: TokenRecord = { id: "t1", name: "ci", scope: "write", hash: "h1", created: "2026-01-01T00:00:00Z", expires: null, lastUsed: "2026-01-02T00:00:00Z", resources: ["r1", "r2"], actions: null, ratePerMinute: 120 };
    const columns = TOKEN_COLUMNS.split(", ");
    const values = tokenValues(t);
    expect(values).toHaveLength(columns.length);
    const row = Object.fromEntries(columns.map((c, i) => [c, values[i]])) as unknown as TokenRow;
    expect(row).toMatchObject({ token_hash: "h1", last_used: "2026-01-02T00:00:00Z", resources: '["r1","r2"]', actions: null, rate_per_minute: 120 });
    expect(tokenRecord(row)).toEqual(t);
  });
});
