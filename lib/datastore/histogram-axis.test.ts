import { describe, expect, it } from "vitest";
import { axisFor, epochSeconds, index, monthNumber, scaleOf, type Axis } from "./histogram-axis";

const edges = (a: Axis) => a.bins.map((b) => [b.from, b.to]);
const widths = (a: Axis) => [...new Set(a.bins.map((b) => Math.round((Number(b.to) - Number(b.from)) * 1e9) / 1e9))];

/** The bin a value falls in, as an engine computes it (clamped into the bins). */
function binOf(a: Axis, position: number): number {
  return Math.max(0, Math.min(a.bins.length - 1, index(a, position) - a.first));
}

describe("scaleOf", () => {
  it("bins numbers, dates and timestamps, and nothing else", () => {
    expect(["int2", "int4", "int8"].map((t) => scaleOf(t as never))).toEqual(["integer", "integer", "integer"]);
    expect(["float4", "float8", "numeric"].map((t) => scaleOf(t as never))).toEqual(["real", "real", "real"]);
    expect(scaleOf("date")).toBe("date");
    expect(scaleOf("timestamp")).toBe("timestamp");
    for (const t of ["text", "bool", "time", "json", "_int4", "_date"]) expect(scaleOf(t as never), t).toBeNull();
  });
});

describe("number axes", () => {
  it("uses widths of 1, 2 or 5 × 10^k, the smallest that gives at most `bins` bins", () => {
    expect(edges(axisFor("real", 0, 1, 10))).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9].map((x) => [x, Math.round((x + 0.1) * 10) / 10]));
    expect(widths(axisFor("real", 0.5, 10, 20))).toEqual([0.5]);
    expect(widths(axisFor("real", 0.001, 0.0042, 20))).toEqual([0.0002]);
    expect(widths(axisFor("integer", 1869, 2001, 20))).toEqual([10]);
    expect(widths(axisFor("real", 0, 1e6, 20))).toEqual([50_000]);
    for (const [min, max, bins] of [[-3.7, 4.2, 20], [0, 99, 7], [1, 1e9, 100], [0.1, 0.3, 3], [-1e-6, 5e-7, 4]]) {
      const a = axisFor("real", min, max, bins);
      expect(a.bins.length).toBeLessThanOrEqual(bins);
      const w = widths(a);
      expect(w).toHaveLength(1);
      const mantissa = w[0] / 10 ** Math.floor(Math.log10(w[0]) + 1e-9);
      expect([1, 2, 5]).toContain(Math.round(mantissa * 1e6) / 1e6);
    }
  });

  it("starts and ends on multiples of the width, covering min and max", () => {
    const a = axisFor("real", -3.7, 4.2, 20);
    expect(a.bins[0]).toEqual({ from: -4, to: -3.5 });
    expect(a.bins.at(-1)).toEqual({ from: 4, to: 4.5 });
    for (let i = 1; i < a.bins.length; i++) expect(a.bins[i].from).toBe(a.bins[i - 1].to);
  });

  it("closes the last bin at a real maximum on an edge, rather than opening a bin for it", () => {
    const a = axisFor("real", 0, 10, 10);
    expect(edges(a)).toHaveLength(10);
    expect(a.bins.at(-1)).toEqual({ from: 9, to: 10 });
    expect(binOf(a, 10)).toBe(9);
    expect(binOf(a, 0)).toBe(0);
    const tenths = axisFor("real", 0, 1, 10);
    expect([0, 0.1, 0.3, 0.7, 0.9, 1].map((x) => binOf(tenths, x))).toEqual([0, 1, 3, 7, 9, 9]);
  });

  it("gives integers whole bins of at least 1: [from, to), the last holding the maximum", () => {
    expect(edges(axisFor("integer", 1, 10, 20))).toEqual(Array.from({ length: 10 }, (_, i) => [i + 1, i + 2]));
    const a = axisFor("integer", 0, 20, 20);
    expect(widths(a)).toEqual([2]);
    expect(a.bins).toHaveLength(11);
    expect(binOf(a, 20)).toBe(10);
    expect(widths(axisFor("integer", 0, 3, 100))).toEqual([1]);
  });

  it("answers one bin from min to max when min is max, for one bin, or past a double's range", () => {
    expect(axisFor("integer", 7, 7, 20).bins).toEqual([{ from: 7, to: 7 }]);
    expect(axisFor("real", -2, 3, 1).bins).toEqual([{ from: -2, to: 3 }]);
    expect(axisFor("real", -1e308, 1e308, 20).bins).toEqual([{ from: -1e308, to: 1e308 }]);
  });
});

describe("date and timestamp axes", () => {
  it("uses whole calendar units: days, Monday weeks, months, quarters, half years, years", () => {
    expect(edges(axisFor("date", "2024-01-01", "2024-01-03", 20))).toEqual([
      ["2024-01-01", "2024-01-02"],
      ["2024-01-02", "2024-01-03"],
      ["2024-01-03", "2024-01-04"],
    ]);
    const weeks = axisFor("date", "2001-01-17", "2001-03-10", 20);
    expect(weeks.bins[0]).toEqual({ from: "2001-01-15", to: "2001-01-22" }); // 2001-01-15 is a Monday
    expect(weeks.bins).toHaveLength(8);
    expect(edges(axisFor("date", "2001-01-15", "2001-03-10", 5))).toEqual([
      ["2001-01-01", "2001-02-01"],
      ["2001-02-01", "2001-03-01"],
      ["2001-03-01", "2001-04-01"],
    ]);
    expect(axisFor("date", "2001-01-15", "2003-03-10", 20).bins[1]).toEqual({ from: "2001-04-01", to: "2001-07-01" });
    expect(axisFor("date", "2001-01-15", "2007-03-10", 20).bins[1]).toEqual({ from: "2001-07-01", to: "2002-01-01" });
    expect(edges(axisFor("date", "1950-06-01", "2020-12-31", 20))[0]).toEqual(["1950-01-01", "1955-01-01"]);
    expect(axisFor("date", "0001-01-15", "9999-03-10", 20).bins[0]).toEqual({ from: "0000-01-01", to: "0500-01-01" });
  });

  it("bins timestamps within a day by seconds, minutes and hours, and answers timestamps", () => {
    const a = axisFor("timestamp", "2020-01-01T10:00:00", "2020-01-01T10:07:13", 20);
    expect(a.bins[0]).toEqual({ from: "2020-01-01T10:00:00", to: "2020-01-01T10:00:30" });
    expect(a.bins.at(-1)).toEqual({ from: "2020-01-01T10:07:00", to: "2020-01-01T10:07:30" });
    expect(axisFor("timestamp", "2020-01-01T10:00:00", "2020-01-03T10:00:00", 20).bins[0]).toEqual({ from: "2020-01-01T09:00:00", to: "2020-01-01T12:00:00" });
    expect(axisFor("timestamp", "2001-01-01T00:00:00", "2021-06-15T08:30:00", 20).bins[0]).toEqual({ from: "2000-01-01T00:00:00", to: "2002-01-01T00:00:00" });
  });

  it("puts each value in the bin whose edges hold it, and never more bins than asked", () => {
    const days = ["2019-12-31", "2020-01-01", "2020-02-29", "2020-03-01", "2021-06-15", "2023-12-31"];
    for (const bins of [2, 3, 5, 10, 20, 50, 100]) {
      const a = axisFor("date", days[0], days.at(-1)!, bins);
      expect(a.bins.length).toBeLessThanOrEqual(bins);
      expect(a.bins[0].from <= days[0] && a.bins.at(-1)!.to > days.at(-1)!).toBe(true);
      for (const d of days) {
        const b = a.bins[binOf(a, a.unit === "month" ? monthNumber(d) : epochSeconds(d))];
        expect(b.from <= d && d < b.to, `${d} in ${JSON.stringify(b)} (${bins} bins)`).toBe(true);
      }
    }
  });

  it("reads ISO text as UTC, years 0–99 included", () => {
    expect(epochSeconds("1970-01-02")).toBe(86_400);
    expect(epochSeconds("1970-01-01T01:02:03")).toBe(3723);
    expect(epochSeconds("0050-01-01")).toBe(-60_589_296_000);
    expect(monthNumber("2001-03-01")).toBe(2001 * 12 + 2);
  });

  it("answers one bin when min is max", () => {
    expect(axisFor("date", "2020-05-05", "2020-05-05", 20).bins).toEqual([{ from: "2020-05-05", to: "2020-05-05" }]);
  });
});

describe("index on a decimal edge", () => {
  it("puts 0.29 in the bin of width 0.01 starting at 0.29, as SQL's round(x, 6) does", () => {
    expect(index({ unit: "number", offset: 0, mul: 100, div: 1 }, 0.29)).toBe(29);
    expect(index({ unit: "number", offset: 0, mul: 100, div: 5 }, -163.8)).toBe(-3276);
  });
});
