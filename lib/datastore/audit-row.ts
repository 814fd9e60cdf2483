// The audit trail as the `datastore_audit` table holds it, on every engine: the table (part of
// each engine's migrations, which name its id column in their own dialect), the columns an
// insert names with the values in their order, and a row read back as an AuditRecord.
// Shipped: never edit the table; a change is a new migration in each engine.
import type { AuditQuery, AuditRecord, NewAuditRecord } from "./engine";

/** `id`: the engine's ever-growing integer key (its order is the order entries were written). */
export function auditTable(id: string): string {
  return `
  CREATE TABLE datastore_audit (
    id ${id},
    at TEXT NOT NULL,
    token_id TEXT,
    token_name TEXT,
    action TEXT NOT NULL,
    resource_id TEXT,
    row_count BIGINT,
    detail TEXT
  );
  CREATE INDEX datastore_audit_resource ON datastore_audit(resource_id, id);
  CREATE INDEX datastore_audit_at ON datastore_audit(at);
  `;
}

export interface AuditRow {
  id: number | string;
  at: string;
  token_id: string | null;
  token_name: string | null;
  action: string;
  resource_id: string | null;
  row_count: number | string | null;
  detail: string | null;
}

/** The columns of an insert, in the order of auditValues. */
export const AUDIT_COLUMNS = "at, token_id, token_name, action, resource_id, row_count, detail";

export function auditValues(e: NewAuditRecord): unknown[] {
  return [e.at, e.tokenId, e.tokenName, e.action, e.resourceId, e.rows, e.detail === null ? null : JSON.stringify(e.detail)];
}

export function auditRecord(r: AuditRow): AuditRecord {
  return {
    id: Number(r.id),
    at: r.at,
    tokenId: r.token_id,
    tokenName: r.token_name,
    action: r.action,
    resourceId: r.resource_id,
    rows: r.row_count === null ? null : Number(r.row_count),
    detail: r.detail === null ? null : (JSON.parse(r.detail) as Record<string, unknown>),
  };
}

/** The WHERE clause of a query (empty for none) and its values; `param(n)` spells the n-th
 *  placeholder (1-based) in the engine's dialect. */
export function auditWhere(q: AuditQuery, param: (n: number) => string): { where: string; values: unknown[] } {
  const parts: string[] = [];
  const values: unknown[] = [];
  const bind = (v: unknown) => {
    values.push(v);
    return param(values.length);
  };
  if (q.resourceId !== undefined) parts.push(`resource_id = ${bind(q.resourceId)}`);
  if (q.token !== undefined) parts.push(`(token_name = ${bind(q.token)} OR token_id = ${bind(q.token)})`);
  if (q.since !== undefined) parts.push(`at >= ${bind(q.since)}`);
  if (q.until !== undefined) parts.push(`at < ${bind(q.until)}`);
  if (q.before !== undefined) parts.push(`id < ${bind(q.before)}`);
  return { where: parts.length ? `WHERE ${parts.join(" AND ")}` : "", values };
}
