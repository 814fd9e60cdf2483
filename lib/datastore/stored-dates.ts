// Whether a string already is a date or a timestamp in the form the datastore stores
// (types.ts toStorage): `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM:SS`. Bulk loads on every engine check
// such strings in place, at a fraction of the general parser's cost (Parquet and our own dumps
// hold them), and give every other string to toStorage, so the accepted inputs are the same.

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function digits(s: string, from: number, n: number): number {
  let v = 0;
  for (let i = from; i < from + n; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

/** `YYYY-MM-DD…` starting with a real day of years 100–9999 (below 100, toStorage's calendar
 *  is JavaScript's, which reads years 0–99 as 1900–1999: those take the general path). */
function startsWithDay(s: string): boolean {
  if (s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return false;
  const y = digits(s, 0, 4);
  const m = digits(s, 5, 2);
  const d = digits(s, 8, 2);
  if (y < 100 || m < 1 || m > 12 || d < 1) return false;
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  return d <= (m === 2 && leap ? 29 : DAYS[m - 1]);
}

/** `YYYY-MM-DD`, a real day: toStorage("date", s) would give s back. */
export function isStoredDate(s: string): boolean {
  return s.length === 10 && startsWithDay(s);
}

/** `YYYY-MM-DDTHH:MM:SS`, a real moment: toStorage("timestamp", s) would give s back. */
export function isStoredTimestamp(s: string): boolean {
  if (s.length !== 19 || s.charCodeAt(10) !== 84 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return false;
  const h = digits(s, 11, 2);
  const m = digits(s, 14, 2);
  const sec = digits(s, 17, 2);
  return h >= 0 && h < 24 && m >= 0 && m < 60 && sec >= 0 && sec < 60 && startsWithDay(s);
}
