// A resource's full-text language through the API (issue 28): datastore_create takes
// `language` as CKAN does, datastore_info shows it, every `q` on the resource is read in it,
// and a new one (datastore_create again, resource_patch) rebuilds the index. Both engines.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { freshDb } from "../test/api";
import { admin, fails, ids, ok } from "../test/contract";

beforeAll(() => {
  freshDb();
});

const RECORDS = [{ t: "Les chevaux galopent" }, { t: "Un cheval blanc" }, { t: "L'élève travaille" }, { t: "Die Häuser am See" }, { t: "Ein Haus" }];
const language = async (id: string) => ok(await admin("datastore_info", { resource_id: id })).meta.language;

async function create(params: Record<string, unknown>): Promise<string> {
  const id = randomUUID();
  ok(await admin("datastore_create", { resource_id: id, fields: [{ id: "t", type: "text" }], records: RECORDS, ...params }), "datastore_create");
  return id;
}

describe("a resource's full-text language", () => {
  it("is english unless datastore_create names one, and datastore_info shows it", async () => {
    const en = await create({});
    expect(await language(en)).toBe("english");
    expect(await ids({ resource_id: en, q: "chevaux" })).toEqual([1]);
    const fr = await create({ language: "French" });
    expect(await language(fr)).toBe("french");
    expect(await ids({ resource_id: fr, q: "chevaux", sort: "_id" })).toEqual([1, 2]);
    expect(await ids({ resource_id: fr, q: "eleve" })).toEqual([3]);
    expect(await ids({ resource_id: fr, q: { t: "chevaux" }, sort: "_id" })).toEqual([1, 2]);
  });

  it("refuses a language it does not stem in, naming those it takes (409)", async () => {
    const id = randomUUID();
    fails(await admin("datastore_create", { resource_id: id, fields: [{ id: "t", type: "text" }], language: "klingon" }), 409, {
      language: [expect.stringMatching(/^"klingon" is not a supported language; use one of: simple, .*\benglish\b.*\bfrench, german\b/)],
    }, "datastore_create");
    fails(await admin("datastore_create", { resource_id: id, fields: [{ id: "t", type: "text" }], language: 7 }), 409, { language: [expect.any(String)] });
    fails(await admin("datastore_info", { resource_id: id }), 404, { message: expect.any(String) });
  });

  it("rebuilds the index in a new language given to datastore_create or resource_patch", async () => {
    const id = await create({});
    expect(await ids({ resource_id: id, q: "Häuser" })).toEqual([4]);
    ok(await admin("datastore_create", { resource_id: id, language: "german" }), "datastore_create");
    expect(await language(id)).toBe("german");
    expect(await ids({ resource_id: id, q: "Häuser", sort: "_id" })).toEqual([4, 5]);
    ok(await admin("resource_patch", { id, language: "french" }), "resource_patch");
    expect(await language(id)).toBe("french");
    expect(await ids({ resource_id: id, q: "chevaux", sort: "_id" })).toEqual([1, 2]);
    fails(await admin("resource_patch", { id, language: "klingon" }), 409, { language: [expect.any(String)] });
    expect(await language(id)).toBe("french");
  });

  it("reads a search's words in its own `language` when it names one (CKAN)", async () => {
    const fr = await create({ language: "french" });
    // Read as simple, chevaux stays chevaux, which the French index holds as cheval.
    expect(await ids({ resource_id: fr, q: "chevaux", language: "simple" })).toEqual([]);
    fails(await admin("datastore_search", { resource_id: fr, q: "chevaux", language: "klingon" }), 409, { language: [expect.any(String)] });
  });
});
