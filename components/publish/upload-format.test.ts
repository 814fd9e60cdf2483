import { describe, expect, it } from "vitest";
import { translator } from "@/lib/i18n";
import { baseName, formatBytes, importText, sentText } from "./upload-format";

describe("upload progress words", () => {
  it("counts bytes in decimal units", () => {
    expect(formatBytes(1)).toBe("1 byte");
    expect(formatBytes(999)).toBe("999 bytes");
    expect(formatBytes(12_345_678)).toBe("12.3 MB");
    expect(formatBytes(999_960)).toBe("1.0 MB");
    expect(sentText(12_300_000, 1_000_000_000)).toBe("12.3 MB of 1.0 GB sent");
  });

  it("shows rows, speed to three digits and time left", () => {
    expect(importText({ phase: "loading", rows: 1_234_567, fraction: 0.5, rows_per_second: 98_437.2, seconds_left: 12.4 })).toBe(
      "1,234,567 rows imported · 98,400 rows/s · about 12 s left",
    );
    expect(importText({ phase: "loading", rows: 1, fraction: 0, rows_per_second: 0, seconds_left: null })).toBe("1 row imported");
    expect(importText({ phase: "loading", rows: 10, fraction: 0.1, rows_per_second: 5, seconds_left: 600 })).toBe(
      "10 rows imported · 5 rows/s · about 10 min left",
    );
    expect(importText({ phase: "indexing", rows: 2000, fraction: 1, rows_per_second: 900, seconds_left: 3 })).toBe(
      "2,000 rows imported · building indexes",
    );
  });

  it("speaks the reader's language, in its digits", () => {
    const fr = translator("fr", "fr-FR");
    expect(sentText(12_300_000, 1_000_000_000, fr)).toBe("12,3 Mo sur 1,0 Go envoyés");
    expect(formatBytes(1, fr)).toBe("1 octet");
    expect(importText({ phase: "loading", rows: 1_234_567, fraction: 0.5, rows_per_second: 98_437.2, seconds_left: 7200 }, fr)).toBe(
      "1\u202f234\u202f567 lignes importées · 98\u202f400 lignes/s · environ 2,0 h restantes",
    );
    const de = translator("de", "de-DE");
    expect(importText({ phase: "indexing", rows: 2000, fraction: 1, rows_per_second: 900, seconds_left: 3 }, de)).toBe("2.000 Zeilen importiert · Indizes werden erstellt");
  });

  it("names a resource after its file", () => {
    expect(baseName("sales 2024.csv")).toBe("sales 2024");
    expect(baseName("a.tar.gz")).toBe("a.tar");
    expect(baseName(".hidden")).toBe(".hidden");
    expect(baseName("README")).toBe("README");
  });
});
