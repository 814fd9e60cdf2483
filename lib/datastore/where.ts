// The WHERE clause of a read or delete over `t` (the resource's table), as every engine builds
// it: a filter tree's groups as balanced AND/OR trees, each condition as its operator writes it
// (operators.ts), filter values cast as CKAN casts them. An engine's Where adds its dialect
// (quoting, placeholders, casts for its driver) and its full text.
import { ID_FIELD, storedField, type StoredField } from "./catalog-row";
import type { Filter } from "./engine";
import { DatastoreError } from "./errors";
import { pyStr } from "./filters";
import { conditionSql, type SqlWriter } from "./operators";
import { CastError, isArrayType, toStorage, type Stored, type TypeName } from "./types";
import { str } from "./validate";

const INTEGER_TYPES = new Set<TypeName>(["int2", "int4", "int8"]);
/** An `_id` list longer than this is bound as one parameter: SQLite takes at most 32766 in a
 *  statement, and a spread sample (search-sample.ts) lists tens of thousands. */
const LONG_ID_LIST = 100;

export abstract class WhereBuilder implements SqlWriter<StoredField> {
  /** The ANDed conditions. */
  parts: string[] = [];
  /** Rank expressions by rank column name ("rank", "rank <field>"). */
  ranks = new Map<string, string>();
  abstract readonly TRUE: string;
  abstract readonly FALSE: string;

  constructor(private readonly columns: ReadonlyMap<string, StoredField>) {}

  col(fieldId: string): StoredField {
    const f = storedField(this.columns, fieldId);
    if (!f) throw DatastoreError.field("filters", `field "${fieldId}" not in table`);
    return f;
  }

  /** ANDs a filter tree (engine.ts Filter) into the condition. */
  filter(f: Filter): void {
    this.parts.push(this.compile(f));
  }

  private compile(f: Filter): string {
    if (f.op === "and") return f.of.length ? `(${allOf(f.of.map((x) => this.compile(x)))})` : this.TRUE;
    if (f.op === "or") return f.of.length ? `(${anyOf(f.of.map((x) => this.compile(x)))})` : this.FALSE;
    if (f.op === "in" && f.field === "_id" && f.values.length > LONG_ID_LIST) {
      const ids = this.wholeIds(f.values);
      if (ids) return ids.length ? this.idIn(ids) : this.FALSE;
    }
    return conditionSql(this, f);
  }

  /** The listed `_id`s cast, SQL NULLs left out; null when one is not a safe integer (then the
   *  list is bound value by value, as any other). */
  private wholeIds(values: unknown[]): number[] | null {
    const ids: number[] = [];
    for (const v of values) {
      const id = this.cast(ID_FIELD, v);
      if (id === null) continue;
      if (typeof id !== "number" || !Number.isSafeInteger(id)) return null;
      ids.push(id);
    }
    return ids;
  }

  /** `_id`, or a field of an integer type. */
  protected isInteger(field: StoredField): boolean {
    return field === ID_FIELD || INTEGER_TYPES.has(field.type);
  }

  /**
   * A filter value as the field's column compares it; null for SQL NULL. A JSON number compared
   * with an integer column stays as it is: `int4 > 5.5` compares exactly, and a bound past the
   * type's range is no error. CKAN 2.12 passes every value for a text field through Python's
   * str() first, so `null` there is the text "None".
   */
  cast(field: StoredField, v: unknown): Stored {
    if (this.isInteger(field) && typeof v === "number" && Number.isFinite(v)) return v;
    if (field === ID_FIELD) return v === null ? null : toStorage("int8", v);
    const t = field.type;
    if (t === "text") return pyStr(v);
    if (v === null) return null;
    if (t === "json") return JSON.stringify(v);
    if (isArrayType(t) && !Array.isArray(v)) throw new CastError(`malformed array literal: "${str(v)}"`);
    return toStorage(t, v);
  }

  abstract column(field: StoredField): string;
  abstract equatable(col: string, field: StoredField): string;
  abstract ordered(expr: string, field: StoredField): string;
  abstract emptyArray(col: string): string;
  abstract bind(field: StoredField, value: Exclude<Stored, null>): string;
  /** The row's `_id` is one of `ids` (a long list, bound as one parameter). */
  abstract idIn(ids: number[]): string;
}

/** ANDs conditions as a balanced tree, in order: SQLite refuses expressions over 1000 deep,
 *  which a plain chain of one condition per filter (or key column) would reach. */
export function allOf(parts: string[]): string {
  if (parts.length <= 8) return parts.join(" AND ");
  const mid = parts.length >> 1;
  return `(${allOf(parts.slice(0, mid))}) AND (${allOf(parts.slice(mid))})`;
}

/** ORs conditions as a balanced tree (see allOf). */
function anyOf(parts: string[]): string {
  if (parts.length <= 8) return parts.join(" OR ");
  const mid = parts.length >> 1;
  return `(${anyOf(parts.slice(0, mid))}) OR (${anyOf(parts.slice(mid))})`;
}
