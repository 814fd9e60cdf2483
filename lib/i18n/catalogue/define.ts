// The shape of a catalogue entry: one key, its text in every language side by side, so a string
// cannot be added in English alone (TypeScript asks for the others). `{name}` is a placeholder;
// a text that depends on a count gives its plural forms (Intl.PluralRules' categories), `other` required.
import type { Lang } from "../languages";

export type Plural = { zero?: string; one?: string; two?: string; few?: string; many?: string; other: string };
export type Text = string | Plural;
export type Entry = Record<Lang, Text>;

/** Keeps each English text's literal type, from which a message's placeholders are typed. */
export function defineMessages<const T extends Record<string, Entry>>(messages: T): T {
  return messages;
}
