// A replace (an upload's or `npm run import --replace`) and history, on both engines: the
// resource keeps its versions and its history setting; the rows before the replace are not kept,
// so as_of before it is a 409 that says so.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, expect, it } from "vitest";
import { getDatastore } from "../datastore";
import { importFile } from "../import/importer";
import { call, freshDb } from "../test/api";
import { admin, fails, ok } from "../test/contract";

beforeAll(() => {
  freshDb();
});

async function replace(id: string, csv: string): Promise<void> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "replace-")), "new.csv");
  fs.writeFileSync(file, csv);
  await importFile((await getDatastore()).engine, file, { resourceId: id, replace: true });
}

const meta = async (id: string) => ok(await admin("datastore_info", { resource_id: id })).meta;

it("keeps the versions and history: true; as_of before the replace is a 409 naming it", async () => {
  const R = ok(await admin("datastore_create", { resource: { name: "r" }, fields: [{ id: "city", type: "text" }], records: [{ city: "Oslo" }] })).resource_id;
  const before = (await meta(R)).version;
  await replace(R, "city\nLima\n");
  const after = await meta(R);
  expect(after.version).toBeGreaterThan(before);
  expect(after.history.enabled).toBe(true);
  fails(await call("datastore_search", { resource_id: R, as_of: before }), 409, {
    as_of: [expect.stringMatching(/^as_of \d+ is before the replace on \d{4}-[\d-]+T[\d:.]+Z: history before the replace is not kept$/)],
  });
  expect(ok(await call("datastore_search", { resource_id: R, as_of: after.version, fields: "city" })).records).toEqual([{ city: "Lima" }]);
});

it("keeps history: false", async () => {
  const S = ok(await admin("datastore_create", { resource: { name: "s" }, history: false, fields: [{ id: "city", type: "text" }] })).resource_id;
  await replace(S, "city\nLima\n");
  expect((await meta(S)).history.enabled).toBe(false);
});
