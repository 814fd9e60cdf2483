// How the importer's messages name its options: by the command line's flags (`npm run import`)
// or by the upload API's parameters (POST /api/upload/<id>/import), so a message says what to
// change in the place its reader is.
export type Wording = "cli" | "api";

const NAMES = {
  cli: { types: "--types", primaryKey: "--primary-key", index: "--index", append: "--append", resourceId: "--resource-id", names: "names" },
  api: { types: "fields", primaryKey: "primary_key", index: "indexes", append: 'mode "append"', resourceId: "resource_id", names: "fields" },
} as const;

export type OptionKey = keyof (typeof NAMES)["cli"];

export function optionName(wording: Wording | undefined, key: OptionKey): string {
  return NAMES[wording ?? "cli"][key];
}

/** The fix for a value its inferred type cannot hold. */
export function textTypeHint(wording: Wording | undefined, field: string): string {
  return wording === "api" ? `set its type to text in fields` : `set it with --types "${field}:text"`;
}
