// A dump the rows cannot take in the format asked (no coordinates for GeoJSON, too many rows
// for a workbook): not a bad parameter, which a dump answers with 400 as CKAN does, but a 409
// that says why (lib/http/envelope.ts keeps its status).
import { DatastoreError } from "./errors";

export function dumpConflict(key: string, message: string): DatastoreError {
  const e = DatastoreError.field(key, message);
  Object.assign(e, { keepsStatus: true });
  return e;
}
