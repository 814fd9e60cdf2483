// datastore_audit_list — our extension: the audit trail (lib/datastore/audit.ts), newest first,
// filtered by resource, token (name or id) and time, paged by limit and offset or by the
// cursor a page answers (`next_cursor`: older entries, however many were written since). An
// admin reads every entry; a write token, one resource's that it may write (the explorer's
// "Recent changes").
import type { AuditQuery, AuditRecord } from "../engine";
import { hasScope, requireScope, requireWrite, type ActionContext } from "../context";
import { ErrorBag } from "../errors";
import { asInt, isEmptyParam, isUnset, requireResourceId, str, type Params } from "../validate";

const MAX_LIMIT = 1000;

/** An ISO 8601 date or time, as stored (UTC, milliseconds); undefined when not given. */
function time(v: unknown, key: string, bag: ErrorBag): string | undefined {
  if (isUnset(v)) return undefined;
  const ms = typeof v === "string" && /^\d{4}-\d\d-\d\d/.test(v) ? Date.parse(v) : NaN;
  if (Number.isNaN(ms)) {
    bag.add(key, "Must be an ISO 8601 date or time (2026-11-27, 2026-11-27T10:00:00Z)");
    return undefined;
  }
  return new Date(ms).toISOString();
}

function wire(e: AuditRecord) {
  return { id: e.id, time: e.at, token: e.tokenName, token_id: e.tokenId, action: e.action, resource_id: e.resourceId, rows: e.rows, detail: e.detail };
}

export async function datastoreAuditList(ctx: ActionContext, params: Params) {
  const bag = new ErrorBag();
  const byResource = !isEmptyParam(params.resource_id) || !isEmptyParam(params.id);
  const asked = byResource ? requireResourceId(params) : undefined;
  const token = isUnset(params.token) ? undefined : str(params.token);
  const since = time(params.since, "since", bag);
  const until = time(params.until, "until", bag);
  const limit = asInt(params.limit, "limit", bag, 100, "Must be a natural number", MAX_LIMIT);
  const offset = asInt(params.offset, "offset", bag, 0, "Must be a natural number");
  const cursor = isUnset(params.cursor) ? undefined : asInt(params.cursor, "cursor", bag, 0, "Must be a cursor this action answered");
  bag.throwIfAny();

  // By id or alias; an id the catalog no longer knows (a deleted resource) is read as given.
  const found = asked === undefined || asked.includes("\u0000") ? undefined : await ctx.engine.getResource(asked);
  const resourceId = found?.id ?? asked;
  if (resourceId === undefined) requireScope(ctx, "admin", "datastore_audit_list");
  else if (!hasScope(ctx.user, "admin")) requireWrite(ctx, resourceId, "datastore_audit_list");
  // Text cannot hold NUL on PostgreSQL, and no entry does.
  if ([resourceId, token].some((v) => v?.includes("\u0000"))) return { records: [], limit, next_cursor: null };
  const query: AuditQuery = { resourceId, token, since, until, before: cursor, limit, offset };
  const entries = await ctx.engine.audit.list(query);
  return { records: entries.map(wire), limit, next_cursor: entries.length === limit ? String(entries.at(-1)!.id) : null };
}
