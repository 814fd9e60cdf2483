// Token dates as the reader's locale writes them, with the words the Tokens page uses when
// there is no date.

const format = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** `iso` as a local date and time, or `none` when there is no date (or not a readable one). */
export function when(iso: string | null, none: string, dates: Intl.DateTimeFormat = format): string {
  if (!iso) return none;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : dates.format(t);
}

export function isPast(iso: string | null, now = Date.now()): boolean {
  return iso !== null && Date.parse(iso) <= now;
}
