// Contract §9: /datastore/dump/{id} through the route's handler with real Requests.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { noReaderHoldsOldSnapshot } from "../datastore/sqlite/test-support";
import { ADMIN, call, freshDb, isPostgres } from "../test/api";
import { BOOK_ROWS, admin, createBooks, ok, token } from "../test/contract";
import { dispatch } from "../test/routes";

let BOOKS: string;
let PRIVATE: string;
let dbFile: string;

beforeAll(async () => {
  dbFile = freshDb();
  BOOKS = await createBooks({ aliases: "books_alias" });
  PRIVATE = await createBooks({}, true);
});

afterEach(() => {
  delete process.env.DATASTORE_LIMIT_MAX;
});

async function dump(id: string, query: Record<string, string> = {}, auth?: string) {
  const qs = new URLSearchParams(query).toString();
  const headers: Record<string, string> = auth ? { authorization: auth } : {};
  const res = await dispatch(new Request(`http://localhost/datastore/dump/${encodeURIComponent(id)}${qs ? `?${qs}` : ""}`, { headers }));
  const bytes = Buffer.from(await res.arrayBuffer());
  // Decoded by hand: Response.text() would drop a byte-order mark.
  return { status: res.status, headers: res.headers, bytes, text: new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes) };
}

/** What datastore_search gives for the same request as records_format=csv|tsv. */
async function searchText(params: Record<string, unknown>, format: "csv" | "tsv"): Promise<string> {
  return ok(await call("datastore_search", { resource_id: BOOKS, limit: 32000, sort: "_id", ...params, records_format: format })).records;
}

const HEADER = ["_id", "title", "author", "year", "rating", "in_stock", "updated", "tags", "meta", "note"];

describe("formats", () => {
  it("csv: a header row, then the rows exactly as records_format=csv", async () => {
    const res = await dump(BOOKS);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${BOOKS}.csv"`);
    expect(res.text).toBe(`${HEADER.join(",")}\r\n${await searchText({}, "csv")}`);
    const lines = res.text.split("\n");
    // The contract's quirks: t/f booleans, NULL as an empty field, "" quoted, NULL json/array as `null`.
    expect(lines[1]).toBe('1,War and Peace,Tolstoy,1869,4.5,t,2020-01-03T00:00:00,"[""classic"",""russian""]","{""translations"": 3}","long, very long"');
    expect(lines[2]).toBe('2,Anna Karenina,Tolstoy,1877,4.2,f,2020-01-01T10:00:00,"[""classic"",""russian""]",null,"says ""hi"""');
    expect(lines[3]).toBe('3,One Hundred Years of Solitude,Gabriel García Márquez,1967,,t,,"[""magical realism""]","{""awards"": [""nobel""]}","line1');
    expect(lines[5]).toBe('4,The Old Man and the Sea,Hemingway,1952,3.9,,2021-06-15T08:30:00,[],"""just text""",""');
    expect(lines[6]).toBe("5,25,Anonymous,,9.99,f,2019-12-31T00:00:00,null,null,");
  });

  it("tsv: tab-separated, quoting only what holds a tab, quote or newline", async () => {
    const res = await dump(BOOKS, { format: "tsv" });
    expect(res.headers.get("content-type")).toBe("text/tab-separated-values; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${BOOKS}.tsv"`);
    expect(res.text).toBe(`${HEADER.join("\t")}\r\n${await searchText({}, "tsv")}`);
    expect(res.text.split("\n").at(-2)).toBe('6\t100% Done_right\tO\'Brien\t2001\t10\tt\t2001-01-01T00:00:00\t"[""a,b""]"\t[1, 2]\t"tab\there"');
  });

  it("json: fields with their types, records as lists", async () => {
    const res = await dump(BOOKS, { format: "json" });
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${BOOKS}.json"`);
    expect(JSON.parse(res.text)).toEqual({
      fields: [
        { id: "_id", type: "int" },
        { id: "title", type: "text" },
        { id: "author", type: "text" },
        { id: "year", type: "int4" },
        { id: "rating", type: "numeric" },
        { id: "in_stock", type: "bool" },
        { id: "updated", type: "timestamp" },
        { id: "tags", type: "_text" },
        { id: "meta", type: "json" },
        { id: "note", type: "text" },
      ],
      records: BOOK_ROWS.map((r) => HEADER.map((k) => r[k as keyof typeof r])),
    });
  });

  it("xml: <data> with one <row _id> per record, xsi:nil for NULL, nested values", async () => {
    const res = await dump(BOOKS, { format: "xml" });
    expect(res.headers.get("content-type")).toBe("text/xml; charset=utf-8");
    expect(res.text.startsWith('<data xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n<row _id="1">')).toBe(true);
    expect(res.text.endsWith("</row>\n</data>\n")).toBe(true);
    const lines = res.text.split(/(?<=<\/row>)\n/);
    expect(lines).toHaveLength(BOOK_ROWS.length + 1);
    lines[0] = lines[0].replace(/^<data[^>]*>\n/, "");
    expect(lines[0]).toBe(
      '<row _id="1"><title>War and Peace</title><author>Tolstoy</author><year>1869</year><rating>4.5</rating><in_stock>True</in_stock>' +
        '<updated>2020-01-03T00:00:00</updated><tags><value key="0">classic</value><value key="1">russian</value></tags>' +
        '<meta><value key="translations">3</value></meta><note>long, very long</note></row>',
    );
    expect(lines[2]).toContain('<rating xsi:nil="true"/>');
    expect(lines[2]).toContain("<note>line1\nline2</note>");
    expect(lines[3]).toContain('<in_stock xsi:nil="true"/>');
    expect(lines[5]).toContain("<author>O&apos;Brien</author>");
  });

  it("bom=true starts the file with a byte-order mark", async () => {
    const res = await dump(BOOKS, { bom: "true", format: "csv" });
    expect([...res.bytes.subarray(0, 6)]).toEqual([0xef, 0xbb, 0xbf, ...Buffer.from("_id")]);
    expect((await dump(BOOKS, { bom: "true", format: "xml" })).text.startsWith("\uFEFF<data ")).toBe(true);
    expect((await dump(BOOKS, { bom: "false" })).bytes[0]).toBe("_".charCodeAt(0));
  });
});

describe("search parameters", () => {
  it("q, filters, fields, sort, offset and limit, as datastore_search", async () => {
    const params = { q: "tolstoy", filters: JSON.stringify({ year: [1869, 1877, 1967] }), fields: "title,year", sort: "year desc", offset: "0", limit: "5" };
    const res = await dump(BOOKS, params);
    expect(res.text).toBe(`title,year\r\nAnna Karenina,1877\nWar and Peace,1869\n`);
    const paged = await dump(BOOKS, { fields: "_id", offset: "2", limit: "2" });
    expect(paged.text).toBe("_id\r\n3\n4\n");
    const distinct = await dump(BOOKS, { fields: "author", distinct: "true", sort: "author" });
    expect(distinct.text).toBe("author\r\nAnonymous\nGabriel García Márquez\nHemingway\nO'Brien\nTolstoy\n");
  });

  it("a full-text dump keeps CKAN's rank column and _id order", async () => {
    const res = await dump(BOOKS, { q: "classic", fields: "_id,title,rank" });
    const lines = res.text.trim().split("\n");
    expect(lines[0]).toBe("_id,title,rank\r");
    expect(lines.slice(1).map((l) => l.split(",").slice(0, 2).join(","))).toEqual(["1,War and Peace", "2,Anna Karenina"]);
  });

  it("has no default page size and no clamp: every row unless a limit is given", async () => {
    process.env.DATASTORE_LIMIT_MAX = "3";
    const id = ok(await admin("datastore_create", { resource: { name: "many" }, fields: [{ id: "n", type: "int" }], records: Array.from({ length: 250 }, (_, i) => ({ n: i })) })).resource_id;
    const all = await dump(id, { fields: "n" });
    expect(all.text.split("\n")).toHaveLength(252);
    expect((await dump(id, { fields: "n", limit: "10" })).text.split("\n")).toHaveLength(12);
  });

  it("answers by alias, naming the file after the real id", async () => {
    const res = await dump("books_alias", { format: "json" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${BOOKS}.json"`);
    expect(res.text).toBe((await dump(BOOKS, { format: "json" })).text);
  });
});

describe("streaming", () => {
  it("sends a big table in chunks, pulled as the reader asks", async () => {
    const records = Array.from({ length: 20_000 }, (_, i) => ({ n: i, s: `row number ${i} with some text to make it longer` }));
    const id = ok(await admin("datastore_create", { resource: { name: "big" }, fields: [{ id: "n", type: "int" }, { id: "s", type: "text" }], records })).resource_id;
    const res = await dispatch(new Request(`http://localhost/datastore/dump/${id}`));
    const reader = res.body!.getReader();
    const sizes: number[] = [];
    let text = "";
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      sizes.push(value.length);
      text += decoder.decode(value, { stream: true });
    }
    expect(sizes.length).toBeGreaterThan(10);
    expect(Math.max(...sizes)).toBeLessThan(80 * 1024);
    expect(text.split("\n")).toHaveLength(20_002);
    expect(text.split("\n")[20_000]).toBe("20000,19999,row number 19999 with some text to make it longer");
  });

  // SQLite only: the open read is seen as a snapshot that holds back SQLite's write-ahead log;
  // the next test checks the same on any engine by what the client can still do.
  it.skipIf(isPostgres)("stops reading when the client goes away", async () => {
    const id = ok(await admin("datastore_create", { resource: { name: "cancel" }, fields: [{ id: "n", type: "int" }], records: Array.from({ length: 30_000 }, (_, i) => ({ n: i })) })).resource_id;
    // In an order other than _id the download reads one snapshot…
    const res = await dispatch(new Request(`http://localhost/datastore/dump/${id}?sort=n%20desc`));
    const reader = res.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    // …which, while the download is open, holds back the log behind a later write…
    ok(await admin("datastore_upsert", { resource_id: id, method: "insert", records: [{ n: -1 }] }));
    expect(noReaderHoldsOldSnapshot(dbFile)).toBe(false);
    await reader.cancel();
    // …and once the client has gone, nothing reads it any more.
    expect(noReaderHoldsOldSnapshot(dbFile)).toBe(true);
    // In _id order (the default) it reads by keyset, a short read per chunk: an open download
    // holds no snapshot between chunks.
    const byId = (await dispatch(new Request(`http://localhost/datastore/dump/${id}`))).body!.getReader();
    expect((await byId.read()).done).toBe(false);
    ok(await admin("datastore_upsert", { resource_id: id, method: "insert", records: [{ n: -2 }] }));
    expect(noReaderHoldsOldSnapshot(dbFile)).toBe(true);
    await byId.cancel();
    ok(await admin("datastore_delete", { resource_id: id }));
  });

  it("holds nothing once clients go away: after dozens of dropped downloads, reads and writes go on", async () => {
    const id = ok(await admin("datastore_create", { resource: { name: "dropped" }, fields: [{ id: "n", type: "int" }], records: Array.from({ length: 20_000 }, (_, i) => ({ n: i })) })).resource_id;
    const within = <T>(p: Promise<T>, what: string) =>
      Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: no answer in 10 s (a dropped download still holds a connection?)`)), 10_000))]);
    // More than a connection pool holds (PostgreSQL: DATASTORE_PG_POOL, 8), in both read paths.
    for (let i = 0; i < 24; i++) {
      const res = await within(dispatch(new Request(`http://localhost/datastore/dump/${id}${i % 2 ? "?sort=n%20desc" : ""}`)), `download ${i}`);
      const reader = res.body!.getReader();
      expect((await within(reader.read(), `download ${i}'s first chunk`)).done).toBe(false);
      await reader.cancel();
    }
    ok(await within(admin("datastore_upsert", { resource_id: id, method: "insert", records: [{ n: -1 }] }), "a write"));
    expect(ok(await within(call("datastore_search", { resource_id: id, limit: 0 }), "a search")).total).toBe(20_001);
    ok(await admin("datastore_delete", { resource_id: id }));
  });
});

describe("errors", () => {
  it("404 for an unknown resource", async () => {
    const res = await dump("no-such-resource");
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text).error.__type).toBe("Not Found Error");
  });

  it("403 for a private resource without a read token; 200 with one", async () => {
    expect((await dump(PRIVATE)).status).toBe(403);
    const reader = await token("read");
    const res = await dump(PRIVATE, {}, reader);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect((await dump(PRIVATE, {}, `Bearer ${ADMIN}`)).status).toBe(200);
    expect((await dump(PRIVATE, {}, "not-a-token")).status).toBe(403);
  });

  it.each([
    [{ format: "docx" }, "format"],
    [{ limit: "ten" }, "limit"],
    [{ limit: "-1" }, "limit"],
    [{ offset: "1.5" }, "offset"],
    [{ filters: "{not json" }, "filters"],
    [{ fields: "title,nope" }, "fields"],
    [{ sort: "nope desc" }, "sort"],
    [{ filters: JSON.stringify({ year: "abc" }) }, "query"],
    [{ q: "&&&", plain: "false" }, "query"],
  ])("400 for %j, naming %s", async (query, key) => {
    const res = await dump(BOOKS, query as Record<string, string>);
    expect(res.status).toBe(400);
    // The one envelope writer's (lib/http/envelope.ts), as every answer of the API.
    expect(res.headers.get("content-type")).toBe("application/json;charset=utf-8");
    const body = JSON.parse(res.text);
    expect(body).toEqual({ help: "http://localhost/api/3/action/help_show?name=datastore_dump", success: false, error: { __type: "Validation Error", [key]: [expect.any(String)] } });
  });

  it("checks parameters before existence, existence before authorization", async () => {
    expect((await dump("no-such-resource", { format: "doc" })).status).toBe(400);
    expect((await dump("no-such-resource", {}, undefined)).status).toBe(404);
    expect((await dump(PRIVATE, { fields: "nope" })).status).toBe(403);
  });
});
