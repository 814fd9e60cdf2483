// A write's time as the reader reads it: date and time to the second, with the time zone, in
// the reader's locale (the history's times are to the second; two writes a second apart differ).
export function formatWhen(iso: string, locale: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "long" }).format(d);
}
