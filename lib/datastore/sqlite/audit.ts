// The audit trail in the `datastore_audit` table: the engine's AuditStorage. What is recorded
// and who may read it live in lib/datastore/audit.ts.
import { AUDIT_COLUMNS, auditRecord, auditValues, auditWhere, type AuditRow } from "../audit-row";
import type { AuditStorage } from "../engine";
import type { Conn } from "./connection";

/** Entries removed per statement, so a long backlog does not hold the write lock for long. */
const PRUNE_BATCH = 5000;

/** `write` runs a write under the engine's write lock (a savepoint inside a transaction),
 *  `read` a read of the writer connection. */
export function sqliteAudit(c: Conn, write: <T>(fn: () => T) => Promise<T>, read: <T>(fn: () => T) => Promise<T>): AuditStorage {
  return {
    record: (e) =>
      write(() => {
        c.cache.get(`INSERT INTO datastore_audit (${AUDIT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`).run(...auditValues(e));
      }),
    list: (q) =>
      read(() => {
        const { where, values } = auditWhere(q, () => "?");
        const sql = `SELECT * FROM datastore_audit ${where} ORDER BY id DESC LIMIT ? OFFSET ?`;
        return (c.db.prepare(sql).all(...values, q.limit, q.offset) as AuditRow[]).map(auditRecord);
      }),
    prune: async (before) => {
      let removed = 0;
      for (;;) {
        const n = await write(
          () => c.db.prepare("DELETE FROM datastore_audit WHERE id IN (SELECT id FROM datastore_audit WHERE at < ? ORDER BY id LIMIT ?)").run(before, PRUNE_BATCH).changes,
        );
        removed += n;
        if (n < PRUNE_BATCH) return removed;
      }
    },
  };
}
