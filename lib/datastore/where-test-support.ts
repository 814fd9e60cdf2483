// A plain dialect for the shared WHERE builder's tests: `?` placeholders, TRUE and FALSE, columns
// as `t.<column>`, nothing cast in SQL.
import type { StoredField } from "./catalog-row";
import type { Stored } from "./types";
import { WhereBuilder } from "./where";

export class PlainWhere extends WhereBuilder {
  readonly TRUE = "TRUE";
  readonly FALSE = "FALSE";
  params: unknown[] = [];

  constructor(fields: StoredField[]) {
    super(new Map(fields.map((f) => [f.id, f])));
  }

  column(f: StoredField): string {
    return `t.${f.column}`;
  }

  equatable(col: string): string {
    return col;
  }

  ordered(expr: string): string {
    return expr;
  }

  bind(_f: StoredField, v: Exclude<Stored, null>): string {
    this.params.push(v);
    return "?";
  }

  emptyArray(col: string): string {
    return `${col} = '[]'`;
  }

  idIn(ids: number[]): string {
    this.params.push(ids);
    return "t._id IN ?";
  }
}
