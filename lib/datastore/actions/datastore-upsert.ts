// datastore_upsert (contract §4): insert, update or upsert records, all-or-nothing;
// `dry_run` does everything, then rolls back.
import { config } from "../../config";
import { recordWrite } from "../audit";
import { findWritableResource, requireScope, type ActionContext } from "../context";
import type { WriteMethod } from "../engine";
import { ErrorBag } from "../errors";
import { asBool, isPlainObject, isUnset, requireResourceId, type Params } from "../validate";
import { tooManyRecords } from "./datastore-create";

const METHODS: WriteMethod[] = ["upsert", "insert", "update"];

class DryRun extends Error {}

export async function datastoreUpsert(ctx: ActionContext, params: Params) {
  const resourceId = requireResourceId(params);
  const bag = new ErrorBag();
  const method = (isUnset(params.method) ? "upsert" : params.method) as WriteMethod;
  if (!METHODS.includes(method)) bag.add("method", `Value must be one of ${METHODS.join(", ")}`);
  let records: Record<string, unknown>[] = [];
  if (!isUnset(params.records)) {
    if (!Array.isArray(params.records)) bag.add("records", "records must be a list");
    else if (params.records.length > config.maxRecords) bag.add("records", tooManyRecords(params.records.length));
    else records = params.records as Record<string, unknown>[];
  }
  records.forEach((rec, i) => {
    if (!isPlainObject(rec)) bag.add("records", `row "${i + 1}" is not a json object`);
  });
  const dryRun = asBool(params.dry_run, false);
  bag.throwIfAny();

  requireScope(ctx, "write", "datastore_upsert");
  const r = await findWritableResource(ctx, resourceId);

  try {
    await ctx.engine.transaction(async (tx) => {
      await tx.write(r.id, records, method);
      if (dryRun) throw new DryRun();
      await recordWrite(tx, ctx.user, { action: "datastore_upsert", resourceId: r.id, rows: records.length, detail: { method } });
    }, [r.id]);
  } catch (e) {
    if (!(e instanceof DryRun)) throw e;
  }
  const result: Record<string, unknown> = { resource_id: r.id, records };
  if (!isUnset(params.method)) result.method = method;
  if (dryRun) result.dry_run = true;
  return result;
}
