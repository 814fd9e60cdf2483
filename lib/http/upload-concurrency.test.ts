// An upload's import runs beside the API, not in front of it: while its transaction is open,
// searches and other resources' writes are answered (lib/upload/import-thread.ts).
import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN, call, freshDb, send } from "../test/api";
import { ok } from "../test/contract";
import { dispatch } from "../test/routes";

let OTHER: string;

beforeAll(async () => {
  freshDb();
  OTHER = ok(await call("datastore_create", { resource: { name: "other" }, fields: [{ id: "a", type: "int" }], records: [{ a: 1 }] }, { token: ADMIN })).resource_id;
});

/** The import's NDJSON answer, a line at a time. */
async function* lines(body: ReadableStream<Uint8Array>): AsyncGenerator<{ progress?: { rows: number }; success?: boolean; result?: { rows: number } }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    buffered += decoder.decode(read.value, { stream: true });
    for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
      yield JSON.parse(buffered.slice(0, end));
      buffered = buffered.slice(end + 1);
    }
  }
}

describe("an import in progress", () => {
  it("does not hold up searches or another resource's writes", async () => {
    let csv = "n,word\n";
    for (let i = 0; i < 300_000; i++) csv += `${i},w${i % 1000}\n`;
    const up = await send("/api/upload?filename=many.csv", { body: csv, token: ADMIN });
    const id = ok(up).upload_id as string;

    const res = await dispatch(
      new Request(`http://localhost/api/upload/${id}/import`, {
        method: "POST",
        headers: { authorization: ADMIN, accept: "application/x-ndjson", "content-type": "application/json" },
        body: JSON.stringify({ mode: "new" }),
      }),
    );
    const answer = lines(res.body!);
    // once rows are going in, the import's transaction is open: ask around it
    for (;;) {
      const line = (await answer.next()).value;
      if (!line?.progress) throw new Error(`the import ended before rows went in: ${JSON.stringify(line)}`);
      if (line.progress.rows > 0) break;
    }
    // the rest of the answer is read meanwhile: `finished` is when the import's last line came
    const rest = (async () => {
      let last;
      for await (const line of answer) last = line;
      return { last, finished: performance.now() };
    })();
    const found = ok(await call("datastore_search", { resource_id: OTHER }));
    const answered = performance.now();
    ok(await call("datastore_upsert", { resource_id: OTHER, method: "insert", records: [{ a: 2 }] }, { token: ADMIN }));
    const wrote = performance.now();
    const { last, finished } = await rest;

    expect(found.records).toEqual([{ _id: 1, a: 1 }]);
    expect(last).toMatchObject({ success: true, result: { rows: 300_000 } });
    expect(finished, "the import was still running when the search was answered").toBeGreaterThan(answered);
    expect(finished, "and when the other resource's write went in").toBeGreaterThan(wrote);
  });
});
