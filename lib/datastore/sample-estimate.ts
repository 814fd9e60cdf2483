// A count seen in a sample, scaled to the rows the sample stands for, with its margin: when a
// caller bounds a read's time (`budget_ms`) and the exact answer does not fit, every count an
// answer gives is the whole match's, estimated, never the sample's own. The interval is
// Wilson's score interval for the share of sampled rows (95%), which stays sensible for small
// counts, where the plain normal one reaches below what the sample itself saw.

const Z = 1.96;

export interface Estimate {
  /** The count scaled to the population. */
  value: number;
  low: number;
  high: number;
}

/** `seen` of `sampled` rows counted, standing for `population` rows. */
export function scaleCount(seen: number, sampled: number, population: number): Estimate {
  if (sampled <= 0 || population <= sampled) return { value: seen, low: seen, high: seen };
  const p = Math.min(1, seen / sampled);
  const z2n = (Z * Z) / sampled;
  const centre = (p + z2n / 2) / (1 + z2n);
  const half = (Z / (1 + z2n)) * Math.sqrt((p * (1 - p)) / sampled + z2n / (4 * sampled));
  // The rows the sample saw are there for sure; rows it did not see could be anywhere else.
  const low = Math.max(seen, Math.floor((centre - half) * population));
  const high = Math.max(low, Math.min(population - (sampled - seen), Math.ceil((centre + half) * population)));
  const value = Math.min(high, Math.max(low, Math.round((seen * population) / sampled)));
  return { value, low, high };
}
