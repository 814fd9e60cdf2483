// The body of POST /api/upload/<id>/import (docs/loading.md) checked and turned into
// the importer's options: every bad parameter is reported at once, per key, as CKAN's
// Validation Error, before any reading or writing. The file's own problems are the importer's.
import path from "node:path";
import { ErrorBag } from "../datastore/errors";
import { parseLanguage } from "../datastore/text-language";
import { resolveType } from "../datastore/types";
import { asStringList, fieldNameError, isPlainObject, isUnset, type Params } from "../datastore/validate";
import type { ImportOptions } from "../import/importer";
import { FORMATS, type Format } from "../import/source";
import { parseEncoding } from "../import/text";
import type { UploadRecord } from "./store";

export type ImportMode = "new" | "append" | "replace";
const MODES: ImportMode[] = ["new", "append", "replace"];

export interface ImportRequest {
  mode: ImportMode;
  options: ImportOptions;
}

function optionalString(params: Params, key: string, bag: ErrorBag): string | undefined {
  const v = params[key];
  if (isUnset(v)) return undefined;
  if (typeof v !== "string") {
    bag.add(key, "must be a string");
    return undefined;
  }
  return v;
}

/** The read options an upload or an import may give (format, encoding, delimiter). */
export function readParams(params: Params, bag: ErrorBag): { format?: Format; encoding?: string; delimiter?: string } {
  const format = optionalString(params, "format", bag)?.toLowerCase();
  if (format !== undefined && !FORMATS.includes(format as Format)) bag.add("format", `"${format}" is not a format (${FORMATS.join(", ")})`);
  const encoding = optionalString(params, "encoding", bag);
  if (encoding !== undefined) {
    try {
      parseEncoding(encoding);
    } catch (e) {
      bag.add("encoding", (e as Error).message);
    }
  }
  let delimiter = optionalString(params, "delimiter", bag);
  if (delimiter === "\\t" || delimiter === "tab") delimiter = "\t";
  if (delimiter !== undefined && (delimiter.length !== 1 || delimiter === '"' || delimiter === "\n" || delimiter === "\r")) {
    bag.add("delimiter", "must be one character other than a quote or a newline");
  }
  return { format: format as Format | undefined, encoding, delimiter };
}

/** The import the body asks for, or a Validation Error listing every bad key. */
export function importRequest(params: Params, upload: UploadRecord): ImportRequest {
  const bag = new ErrorBag();
  const mode = (params.mode ?? "new") as ImportMode;
  if (!MODES.includes(mode)) bag.add("mode", `must be one of ${MODES.join(", ")}`);
  const resourceId = optionalString(params, "resource_id", bag);
  if (mode !== "new" && MODES.includes(mode) && resourceId === undefined) bag.add("resource_id", `Missing value (mode ${mode} needs the resource)`);
  const name = optionalString(params, "name", bag);
  const description = optionalString(params, "description", bag);
  let isPrivate: boolean | undefined;
  if (!isUnset(params.private)) {
    if (typeof params.private === "boolean") isPrivate = params.private;
    else bag.add("private", "must be true or false");
  }

  const names: Record<string, string> = {};
  const types: Record<string, string> = {};
  if (!isUnset(params.fields)) {
    if (!Array.isArray(params.fields)) bag.add("fields", "must be a list of {from, id, type}");
    else {
      for (const f of params.fields) {
        if (!isPlainObject(f) || typeof f.from !== "string") {
          bag.add("fields", "each field must be {from, id, type} with from a column of the file");
          continue;
        }
        if (!upload.columns.includes(f.from)) bag.add("fields", `"${f.from}" is not a column of the file (its columns: ${upload.columns.join(", ")})`);
        const id = isUnset(f.id) ? f.from : f.id;
        const nameError = fieldNameError(id);
        if (nameError) bag.add("fields", nameError);
        else names[f.from] = id as string;
        if (!isUnset(f.type)) {
          if (resolveType(f.type) === null) bag.add("fields", `"${String(f.type)}" is not a valid field type (for "${String(id)}")`);
          else if (typeof id === "string") types[id] = f.type as string;
        }
      }
      // The file's columns as they will be named: two of them may not end up with one name.
      const ids = upload.columns.map((c) => names[c] ?? c);
      const twice = ids.find((c, i) => ids.indexOf(c) !== i);
      if (twice !== undefined) bag.add("fields", `two columns would be called "${twice}"`);
    }
  }
  const primaryKey = isUnset(params.primary_key) ? undefined : asStringList(params.primary_key, "primary_key", bag);
  const language = parseLanguage(params.language, bag);
  const read = readParams(params, bag);
  bag.throwIfAny();

  return {
    mode,
    options: {
      resourceId,
      // A new resource is named after the file unless told; a replaced one keeps its name.
      name: name ?? (mode === "new" ? path.basename(upload.filename, path.extname(upload.filename)) || upload.filename : undefined),
      description,
      private: mode === "append" ? undefined : isPrivate,
      language: mode === "append" ? undefined : language,
      names,
      types,
      primaryKey,
      append: mode === "append",
      replace: mode === "replace",
      format: read.format ?? upload.format,
      encoding: read.encoding ?? upload.read.encoding,
      delimiter: read.delimiter ?? upload.read.delimiter,
      wording: "api",
    },
  };
}
