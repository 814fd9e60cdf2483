// The audit trail's rules: what a write records (time, the token's name and id, never its
// secret; action, resource, rows), recorded through the write's own transaction so a write
// rolled back leaves no entry. How long it is kept: audit-retention.ts.
import type { Principal } from "../auth/principal";
import { authorOf } from "./context";
import type { DatastoreEngine, WriteAuthor } from "./engine";

export interface AuditNote {
  action: string;
  resourceId: string | null;
  rows?: number | null;
  detail?: Record<string, unknown> | null;
}

/** Records a write by `who` (the caller, or its author as an import thread receives it);
 *  `tx`: the handle of the transaction the write ran in. */
export async function recordWrite(tx: DatastoreEngine, who: Principal | WriteAuthor, note: AuditNote): Promise<void> {
  const author = "scope" in who ? authorOf(who) : who;
  await tx.audit.record({
    at: new Date().toISOString(),
    tokenId: author.tokenId,
    tokenName: author.tokenName,
    action: note.action,
    resourceId: note.resourceId,
    rows: note.rows ?? null,
    detail: note.detail ?? null,
  });
}
