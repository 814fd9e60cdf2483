// An upload's import runs beside the API, not in front of it: while its transaction is open,
// searches and other resources' writes are answered (lib/upload/import-thread.ts).
import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN, call, freshDb, send } from "../test/api";
import { ok } from "../test/contract";

let OTHER: string;

beforeAll(async () => {
  freshDb();
  OTHER = ok(await call("datastore_create", { resource: { name: "other" }, fields: [{ id: "a", type: "int" }], records: [{ a: 1 }] }, { token: ADMIN })).resource_id;
});

describe("an import in progress", () => {
  it("does not hold up searches or another resource's writes", async () => {
    let csv = "n,word\n";
    for (let i = 0; i < 300_000; i++) csv += `${i},w${i % 1000}\n`;
    const up = await send("/api/upload?filename=many.csv", { body: csv, token: ADMIN });
    const id = ok(up).upload_id as string;

    let finished = 0;
    const importing = send(`/api/upload/${id}/import`, { body: JSON.stringify({ mode: "new" }), token: ADMIN, headers: { "content-type": "application/json" } }).then((r) => {
      finished = performance.now();
      return r;
    });
    // once the import has its transaction open, ask around it
    await new Promise((r) => setTimeout(r, 300));
    const found = ok(await call("datastore_search", { resource_id: OTHER }));
    const answered = performance.now();
    ok(await call("datastore_upsert", { resource_id: OTHER, method: "insert", records: [{ a: 2 }] }, { token: ADMIN }));
    const wrote = performance.now();
    const result = ok(await importing);

    expect(found.records).toEqual([{ _id: 1, a: 1 }]);
    expect(result.rows).toBe(300_000);
    expect(finished, "the import was still running when the search was answered").toBeGreaterThan(answered);
    expect(finished, "and when the other resource's write went in").toBeGreaterThan(wrote);
  });
});
