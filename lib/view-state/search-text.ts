// The search box's text -> a datastore_search `q` in tsquery syntax (plain: false): every word
// must match, the last one as a prefix, so results follow the user as they type.

/** Words as the full-text index sees them: runs of letters and digits. */
function searchWords(text: string): string[] {
  return text.match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** `"portland or"` -> `"portland & or:*"`; empty when there is nothing to search. */
export function toPrefixQuery(text: string): string {
  const words = searchWords(text);
  if (words.length === 0) return "";
  const last = words.length - 1;
  return words.map((w, i) => (i === last ? `${w}:*` : w)).join(" & ");
}
