// CKAN 2.12's `filters` (contract §6.2a), parsed as ckanext/datastore/filters.py parses them:
// a dict ANDs its keys, a top-level list of dicts ORs them, `$or`/`$and` take lists of dicts
// and merge into a parent of the same kind, `$$name` spells a field starting with `$`, and a
// field's value is a scalar (eq), a list (any of; operator dicts in it are ORed) or a dict of
// operators (ANDed), each operator as operators.ts defines it. Same messages, same limits.
import type { Filter } from "./engine";
import { DatastoreError } from "./errors";
import { operatorNamed } from "./operators";

const MAX_DEPTH = 10;
const MAX_OPS = 100;

type Json = unknown;
type Group = "$or" | "$and";

const tooMany = () => DatastoreError.field("filters", "Maximum number of filter operations exceeded");

class Parser {
  errors: string[] = [];
  /** CKAN finds unknown operators when it builds SQL, after the parse errors: only the first counts. */
  opError: string | null = null;
  /** The first unknown field given a plain list, which CKAN reports in its own words. */
  unlisted: string | null = null;
  private ops = 0;

  constructor(private readonly known: (field: string) => boolean) {}

  private count(): void {
    if (++this.ops > MAX_OPS) throw tooMany();
  }

  top(input: Json): Filter | null {
    if (!isDictOrListOfDicts(input)) throw DatastoreError.field("filters", "Filters must be defined as a dict or a list of dicts");
    if (Array.isArray(input)) {
      if (input.length >= MAX_OPS) throw tooMany();
      const members = this.groupMembers(input, "$or", 0);
      if (!members) return null;
      this.count();
      return { op: "or", of: members };
    }
    const dict = input as Record<string, Json>;
    if (Object.keys(dict).length >= MAX_OPS) throw tooMany();
    const children: Filter[] = [];
    for (const [key, value] of Object.entries(dict)) children.push(...this.entry(key, value, 0, true));
    if (this.errors.length || children.length === 0) return null;
    if (children.length === 1) return children[0];
    this.count();
    return { op: "and", of: children };
  }

  /** What one key of a dict adds: a field's filter, or a `$or`/`$and` group. A top-level
   *  `$and` adds its members to the root AND itself (CKAN). */
  private entry(key: string, value: Json, depth: number, top: boolean): Filter[] {
    if (!isGroupKey(key)) {
      const f = this.field(key, value);
      return f ? [f] : [];
    }
    const bad = this.checkGroup(key, value);
    if (bad) {
      this.errors.push(bad);
      return [];
    }
    const members = this.groupMembers(value, key as Group, depth);
    if (!members) return [];
    if (top && key === "$and") return members;
    this.count();
    return [key === "$or" ? { op: "or", of: members } : { op: "and", of: members }];
  }

  private checkGroup(key: string, value: Json): string | null {
    if (key !== "$or" && key !== "$and") return `Unknown operators (must be one of $or, $and): ${key}`;
    if (!Array.isArray(value) || !value.every(isDict)) return `Filter operations must be defined as a list of dicts: ${pyStr(value)}`;
    return null;
  }

  /** The members of a `$or`/`$and` (or the top-level list), each dict's keys ANDed; members of
   *  the same kind of group merge into this one. */
  private groupMembers(list: Json, parent: Group, depth: number): Filter[] | null {
    if (depth + 1 >= MAX_DEPTH) throw DatastoreError.field("filters", "Maximum nesting depth for filter operations reached");
    const out: Filter[] = [];
    for (const item of list as Record<string, Json>[]) {
      if (Object.keys(item).length >= MAX_OPS) throw tooMany();
      const ands: Filter[] = [];
      for (const [key, value] of Object.entries(item)) ands.push(...this.entry(key, value, depth + 1, false));
      if (ands.length === 1) out.push(ands[0]);
      else if (ands.length > 1) {
        this.count();
        out.push({ op: "and", of: merge(ands, "and") });
      }
    }
    return out.length ? merge(out, parent === "$or" ? "or" : "and") : null;
  }

  /** One field's value: a scalar, a dict of operators or a list. */
  private field(name: string, value: Json): Filter | null {
    if (name.startsWith("$$")) name = name.slice(1);
    if (isDict(value)) {
      const entries = Object.entries(value);
      if (entries.length === 1) return this.operator(name, entries[0][0], entries[0][1]);
      if (entries.length === 0) {
        // CKAN fails with a server error here; an empty dict of operators is a bad filter.
        this.opError ??= `Unknown filter operation: FilterOp(field=${pyStr(name)}, op=None, value={})`;
        return null;
      }
      const ands = entries.map(([op, v]) => this.field(name, { [op]: v })).filter((f): f is Filter => f !== null);
      if (!ands.length) return null;
      this.count();
      return { op: "and", of: ands };
    }
    if (Array.isArray(value)) {
      const dicts = value.filter(isDict);
      const plain = value.filter((v) => !isDict(v));
      if (!dicts.length) return this.anyOf(name, value);
      const members = dicts.map((d) => this.field(name, d)).filter((f): f is Filter => f !== null);
      if (plain.length) members.push(this.anyOf(name, plain));
      if (!members.length) return null;
      this.count();
      return { op: "or", of: members };
    }
    return this.operator(name, "eq", value);
  }

  private operator(field: string, op: string, value: Json): Filter | null {
    return this.leaf(field, () => {
      const known = operatorNamed(op);
      const f = known?.parse(field, value) ?? null;
      if (f === null) this.opError ??= unknownOp(field, op, value, known?.takes);
      return f;
    });
  }

  /** A list of plain values. CKAN checks its field only after parsing (see parseFilters). */
  private anyOf(field: string, values: Json[]): Filter {
    this.count();
    if (!this.known(field)) this.unlisted ??= field;
    return { op: "in", field, values };
  }

  /** A filter on one field, once the field is known to exist. */
  private leaf(field: string, make: () => Filter | null): Filter | null {
    if (!this.known(field)) {
      this.errors.push(`Unknown field: ${field}`);
      return null;
    }
    this.count();
    return make();
  }
}

/** CKAN's message; our extensions add what they take. */
function unknownOp(field: string, op: string, value: Json, takes: string | undefined): string {
  const message = `Unknown filter operation: FilterOp(field=${pyRepr(field)}, op=${pyRepr(op)}, value=${pyRepr(value)})`;
  return takes ? `${message}: ${op} takes ${takes}` : message;
}

/** Nested groups of the parent's kind merge into it. */
function merge(filters: Filter[], kind: "and" | "or"): Filter[] {
  return filters.flatMap((f) => ((f.op === "and" || f.op === "or") && f.op === kind ? f.of : [f]));
}

/**
 * Parses `filters` against the resource's fields (`known` says whether a name is one, `_id`
 * included). Returns null for no filter. Throws DatastoreError 409 `filters` with CKAN's messages.
 */
export function parseFilters(input: Json, known: (field: string) => boolean): Filter | null {
  if (isEmpty(input)) return null;
  const parser = new Parser(known);
  const tree = parser.top(input);
  if (parser.errors.length) throw DatastoreError.validation({ filters: parser.errors });
  if (parser.unlisted !== null) throw DatastoreError.field("filters", `invalid value "${parser.unlisted}"`);
  if (parser.opError) throw DatastoreError.field("filters", parser.opError);
  // Filters that say nothing (`{"$or": []}`, `[{}]`) are refused, never read as "every row":
  // a delete would empty the table. CKAN refuses the dict form the same way.
  if (tree === null) {
    const first = Array.isArray(input) ? pyStr(input[0]) : Object.keys(input as object)[0];
    throw DatastoreError.field("filters", `invalid value "${first}"`);
  }
  return tree;
}

/** Python's falsiness, which CKAN tests before anything else: {}, [], "", 0, false, null. */
function isEmpty(v: Json): boolean {
  if (Array.isArray(v)) return v.length === 0;
  if (isDict(v)) return Object.keys(v).length === 0;
  return !v;
}

/** How many values a filter tree binds (SQLite binds a bounded number per statement). */
export function filterValueCount(filters: Filter[]): number {
  let n = 0;
  const stack = [...filters];
  while (stack.length) {
    const f = stack.pop()!;
    if (f.op === "and" || f.op === "or") stack.push(...f.of);
    else if (f.op === "in" || f.op === "not_in") n += f.values.length;
    else n += 1;
  }
  return n;
}

function isDict(v: Json): v is Record<string, Json> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function isDictOrListOfDicts(v: Json): boolean {
  return isDict(v) || (Array.isArray(v) && v.every(isDict));
}

function isGroupKey(key: string): boolean {
  return key.startsWith("$") && !key.startsWith("$$");
}

/** Python's str() of a JSON value, as CKAN's messages (and its text casts) print them. */
export function pyStr(v: Json): string {
  return typeof v === "string" ? v : pyRepr(v);
}

/** Python's repr() of a JSON value. */
export function pyRepr(v: Json): string {
  if (v === null || v === undefined) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "number") return String(v);
  if (typeof v === "string") return v.includes("'") && !v.includes('"') ? `"${v}"` : `'${v.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(", ")}]`;
  return `{${Object.entries(v as Record<string, Json>)
    .map(([k, x]) => `${pyRepr(k)}: ${pyRepr(x)}`)
    .join(", ")}}`;
}
