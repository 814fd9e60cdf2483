// The audit trail in the `datastore_audit` table: the engine's AuditStorage. What is recorded
// and who may read it live in lib/datastore/audit.ts.
import { AUDIT_COLUMNS, auditRecord, auditValues, auditWhere, type AuditRow } from "../audit-row";
import type { AuditStorage } from "../engine";
import type { Queryable } from "./resource";

/** Entries removed per statement, so a long backlog is not one long transaction. */
const PRUNE_BATCH = 5000;

/** `db`: the primary, or a transaction's client; `guard` maps the driver's failures. */
export function pgAudit(db: Queryable, guard: <T>(fn: () => Promise<T>) => Promise<T>): AuditStorage {
  return {
    record: (e) =>
      guard(async () => {
        await db.query(`INSERT INTO datastore_audit (${AUDIT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`, auditValues(e));
      }),
    list: (q) =>
      guard(async () => {
        const { where, values } = auditWhere(q, (n) => `$${n}`);
        const n = values.length;
        const sql = `SELECT * FROM datastore_audit ${where} ORDER BY id DESC LIMIT $${n + 1} OFFSET $${n + 2}`;
        return (await db.query<AuditRow>(sql, [...values, q.limit, q.offset])).rows.map(auditRecord);
      }),
    prune: (before) =>
      guard(async () => {
        let removed = 0;
        for (;;) {
          const sql = "DELETE FROM datastore_audit WHERE id IN (SELECT id FROM datastore_audit WHERE at < $1 ORDER BY id LIMIT $2)";
          const n = (await db.query(sql, [before, PRUNE_BATCH])).rowCount ?? 0;
          removed += n;
          if (n < PRUNE_BATCH) return removed;
        }
      }),
  };
}
