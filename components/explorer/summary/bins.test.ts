import { describe, expect, it } from "vitest";
import { binBounds, binLabel, binPeriod, periodWords } from "./bins";

const bin = (from: number | string, to: number | string, count = 1) => ({ from, to, count });

describe("summary bins", () => {
  it("reads the period the server chose from the bin edges", () => {
    expect(binPeriod([bin("2012-01-01", "2012-01-02")])).toEqual({ unit: "day", size: 1 });
    expect(binPeriod([bin("2001-01-01T00:00:00", "2001-01-08T00:00:00")])).toEqual({ unit: "week", size: 1 });
    expect(binPeriod([bin("2012-01-01", "2012-02-01")])).toEqual({ unit: "month", size: 1 });
    expect(binPeriod([bin("2012-02-01", "2012-03-01")])).toEqual({ unit: "month", size: 1 });
    expect(binPeriod([bin("2012-01-01", "2012-04-01")])).toEqual({ unit: "quarter", size: 1 });
    expect(binPeriod([bin("2012-07-01", "2013-01-01")])).toEqual({ unit: "half year", size: 1 });
    expect(binPeriod([bin("2012-01-01", "2013-01-01")])).toEqual({ unit: "year", size: 1 });
    expect(binPeriod([bin("1990-01-01", "2000-01-01")])).toEqual({ unit: "year", size: 10 });
    expect(binPeriod([bin("2001-01-01T02:00:00", "2001-01-01T04:00:00")])).toEqual({ unit: "hour", size: 2 });
    expect(binPeriod([bin("2001-01-01T02:15:00", "2001-01-01T02:30:00")])).toEqual({ unit: "minute", size: 15 });
    expect(binPeriod([bin(0, 10)])).toBeNull();
    expect(binPeriod([bin("2012-01-05", "2012-01-05")])).toBeNull();
    expect(binPeriod([])).toBeNull();
    expect(periodWords({ unit: "month", size: 1 })).toBe("month");
    expect(periodWords({ unit: "year", size: 5 })).toBe("5 years");
  });

  it("labels a bin as a reader says it", () => {
    const L = "en-US";
    expect(binLabel(bin(2600, 2800), false, "integer", null, L)).toBe("2,600 to 2,799");
    expect(binLabel(bin(1990, 2000), false, "integer", null, L, false)).toBe("1990 to 1999");
    expect(binLabel(bin(10000, 20000), true, "integer", null, L)).toBe("10,000 to 19,999");
    expect(binLabel(bin(32, 34), false, "number", null, L)).toBe("32 to 34");
    expect(binLabel(bin(7, 7), true, "integer", null, L)).toBe("7");
    expect(binLabel(bin("2012-01-01", "2012-01-02"), false, "date", { unit: "day", size: 1 }, L)).toBe("Jan 1, 2012");
    expect(binLabel(bin("2001-01-01T00:00:00", "2001-01-08T00:00:00"), false, "timestamp", { unit: "week", size: 1 }, L)).toBe("week of Jan 1, 2001");
    expect(binLabel(bin("2012-01-01", "2012-02-01"), false, "date", { unit: "month", size: 1 }, L)).toBe("January 2012");
    expect(binLabel(bin("2015-10-01", "2016-01-01"), true, "date", { unit: "quarter", size: 1 }, L)).toBe("Oct 2015 to Dec 2015");
    expect(binLabel(bin("2012-01-01", "2013-01-01"), false, "date", { unit: "year", size: 1 }, L)).toBe("2012");
    expect(binLabel(bin("1990-01-01", "2000-01-01"), false, "date", { unit: "year", size: 10 }, L)).toBe("1990 to 1999");
    expect(binLabel(bin("2012-01-05", "2012-01-05"), true, "date", null, L)).toBe("Jan 5, 2012");
    expect(binLabel(bin(12345.5, 12346), false, "number", null, "de-DE")).toBe("12.345,5 to 12.346");
  });

  it("turns a bin into the range chip's inclusive bounds", () => {
    expect(binBounds(bin(2600, 2800), false, "integer")).toEqual({ from: 2600, to: 2799 });
    expect(binBounds(bin(6200, 6400), true, "integer")).toEqual({ from: 6200, to: 6399 });
    expect(binBounds(bin(32, 34), false, "number")).toEqual({ from: 32, to: 34 });
    expect(binBounds(bin(58, 60), true, "number")).toEqual({ from: 58, to: 60 });
    expect(binBounds(bin("2012-01-01", "2012-04-01"), false, "date")).toEqual({ from: "2012-01-01", to: "2012-03-31" });
    expect(binBounds(bin("2015-10-01", "2016-01-01"), true, "date")).toEqual({ from: "2015-10-01", to: "2015-12-31" });
    expect(binBounds(bin("2001-01-01T00:00:00", "2001-01-08T00:00:00"), false, "timestamp")).toEqual({ from: "2001-01-01", to: "2001-01-07T23:59:59" });
    expect(binBounds(bin("2001-01-01T02:00:00", "2001-01-01T04:00:00"), false, "timestamp")).toEqual({
      from: "2001-01-01T02:00:00",
      to: "2001-01-01T03:59:59",
    });
    expect(binBounds(bin("2001-01-01T02:17:00", "2001-01-01T02:17:00"), true, "timestamp")).toEqual({
      from: "2001-01-01T02:17:00",
      to: "2001-01-01T02:17:00",
    });
  });
});
