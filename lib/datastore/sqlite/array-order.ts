// PostgreSQL orders arrays element by element (a shorter array first when it is a prefix of
// the other, NULL elements after all others). Arrays are stored as JSON text here, whose own
// order differs ([10] before [9]), so `sort` on an array field orders by `ds_array_key(col)`:
// a BLOB whose byte order (SQLite compares BLOBs with memcmp) is that element order.
import type Database from "better-sqlite3";

const NUMBER = 0x01;
const TEXT = 0x01;
const NULL_ELEMENT = 0x02;
const END_OF_TEXT = 0x00;

/** A double as 8 bytes that compare as the numbers do. */
function numberBytes(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeDoubleBE(n === 0 ? 0 : n); // -0 sorts as 0
  if (n < 0 || Object.is(n, -0)) for (let i = 0; i < 8; i++) b[i] = ~b[i] & 0xff;
  else b[0] |= 0x80;
  return b;
}

function arrayKey(json: string | null): Buffer | null {
  if (json === null) return null;
  let values: unknown;
  try {
    values = JSON.parse(json);
  } catch {
    return Buffer.from(json);
  }
  if (!Array.isArray(values)) return Buffer.from(json);
  const parts: Buffer[] = [];
  for (const v of values) {
    if (v === null) parts.push(Buffer.from([NULL_ELEMENT]));
    else if (typeof v === "number" || typeof v === "boolean") parts.push(Buffer.from([NUMBER]), numberBytes(Number(v)));
    else parts.push(Buffer.from([TEXT]), Buffer.from(typeof v === "string" ? v : JSON.stringify(v)), Buffer.from([END_OF_TEXT]));
  }
  return Buffer.concat(parts);
}

export function installArrayKey(db: Database.Database): void {
  db.function("ds_array_key", { deterministic: true }, (v: unknown) => arrayKey(typeof v === "string" ? v : v === null ? null : String(v)));
}
