// The streamed zip's records read back field by field as APPNOTE.TXT lays them out: plain
// 32-bit records while everything fits (what Excel reads), and zip64 records where a size or an
// offset passes 32 bits, seen here by lowering the writer's threshold instead of writing 4 GiB.
// (xlsx.test.ts opens such an archive with exceljs's reader.)
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { ZipWriter } from "./zip-stream";

interface Entry {
  name: string;
  version: number;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
  zip64: number[];
}

/** The directory as a reader finds it: from the end record, through the zip64 end record when
 *  the end record's fields say so. */
function directory(zip: Buffer): { entries: Entry[]; zip64End: boolean } {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  expect(end).toBe(zip.length - 22);
  let count = zip.readUInt16LE(end + 10);
  let size = zip.readUInt32LE(end + 12);
  let start = zip.readUInt32LE(end + 16);
  const zip64End = size === 0xffffffff || start === 0xffffffff;
  if (zip64End) {
    const locator = end - 20;
    expect(zip.readUInt32LE(locator)).toBe(0x07064b50);
    const record = Number(zip.readBigUInt64LE(locator + 8));
    expect(zip.readUInt32LE(record)).toBe(0x06064b50);
    expect(Number(zip.readBigUInt64LE(record + 4))).toBe(44);
    expect(record + 56).toBe(locator);
    count = Number(zip.readBigUInt64LE(record + 32));
    size = Number(zip.readBigUInt64LE(record + 40));
    start = Number(zip.readBigUInt64LE(record + 48));
    expect(start + size).toBe(record);
  } else {
    expect(start + size).toBe(end);
  }
  const entries: Entry[] = [];
  for (let at = start, i = 0; i < count; i++) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const e: Entry = {
      name: zip.toString("utf8", at + 46, at + 46 + nameLength),
      version: zip.readUInt16LE(at + 6),
      crc: zip.readUInt32LE(at + 16),
      compressed: zip.readUInt32LE(at + 20),
      size: zip.readUInt32LE(at + 24),
      offset: zip.readUInt32LE(at + 42),
      zip64: [],
    };
    const extra = zip.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength);
    if (extra.length) {
      expect(extra.readUInt16LE(0)).toBe(0x0001);
      expect(extra.readUInt16LE(2)).toBe(extra.length - 4);
      for (let k = 4; k < extra.length; k += 8) e.zip64.push(Number(extra.readBigUInt64LE(k)));
      // the zip64 field holds, in this order, the fields set to 0xffffffff
      const wide = [...e.zip64];
      if (e.size === 0xffffffff) e.size = wide.shift()!;
      if (e.compressed === 0xffffffff) e.compressed = wide.shift()!;
      if (e.offset === 0xffffffff) e.offset = wide.shift()!;
      expect(wide).toEqual([]);
    }
    entries.push(e);
    at += 46 + nameLength + extraLength;
  }
  return { entries, zip64End };
}

/** An entry's data through its local header, inflated and checked against the directory; and
 *  the data descriptor's sizes (8 bytes each when `wide`). */
function read(zip: Buffer, e: Entry, wide: boolean): string {
  expect(zip.readUInt32LE(e.offset)).toBe(0x04034b50);
  expect(zip.readUInt16LE(e.offset + 4)).toBe(45);
  expect(zip.readUInt16LE(e.offset + 6) & 0x08).toBe(0x08);
  expect(zip.readUInt16LE(e.offset + 28)).toBe(0); // no extra field in a streamed local header
  const data = e.offset + 30 + zip.readUInt16LE(e.offset + 26);
  const text = zlib.inflateRawSync(zip.subarray(data, data + e.compressed));
  expect(text.length).toBe(e.size);
  expect(zlib.crc32(text)).toBe(e.crc);
  const descriptor = data + e.compressed;
  expect(zip.readUInt32LE(descriptor)).toBe(0x08074b50);
  expect(zip.readUInt32LE(descriptor + 4)).toBe(e.crc);
  if (wide) {
    expect([Number(zip.readBigUInt64LE(descriptor + 8)), Number(zip.readBigUInt64LE(descriptor + 16))]).toEqual([e.compressed, e.size]);
  } else {
    expect([zip.readUInt32LE(descriptor + 8), zip.readUInt32LE(descriptor + 12)]).toEqual([e.compressed, e.size]);
  }
  return text.toString("utf8");
}

function archive(zip: ZipWriter, parts: [string, string[]][]): Buffer {
  const out: Buffer[] = [];
  for (const [name, pieces] of parts) {
    out.push(zip.begin(name));
    for (const p of pieces) out.push(zip.write(p));
    out.push(zip.end());
  }
  out.push(zip.finish());
  return Buffer.concat(out);
}

const PARTS: [string, string[]][] = [
  ["small.xml", ["<a/>"]],
  ["big/sheet1.xml", ["<rows>", "x".repeat(5000), "é".repeat(3000), "</rows>"]],
  ["last.xml", ["<z>", "tail", "</z>"]],
];

describe("ZipWriter", () => {
  it("while everything fits in 32 bits: no zip64 field, descriptor or end record", () => {
    const zip = archive(new ZipWriter(), PARTS);
    const { entries, zip64End } = directory(zip);
    expect(zip64End).toBe(false);
    expect(entries.map((e) => [e.name, e.version, e.zip64])).toEqual(PARTS.map(([name]) => [name, 20, []]));
    expect(entries.map((e) => read(zip, e, false))).toEqual(PARTS.map(([, pieces]) => pieces.join("")));
  });

  it("an entry past the threshold: 8-byte sizes in its descriptor, a zip64 field with only what overflowed", () => {
    // sizes from 1,000 bytes count as "past 4 GiB"; offsets stay under (the archive is smaller)
    const zip = archive(new ZipWriter(undefined, 1000), PARTS);
    const { entries, zip64End } = directory(zip);
    expect(zip64End).toBe(false);
    const [small, big, last] = entries;
    expect([small.version, small.zip64]).toEqual([20, []]);
    expect(big.version).toBe(45);
    // its 11,013 bytes overflowed, not their deflated size: the zip64 field holds the size alone
    expect(big.compressed).toBeLessThan(1000);
    expect(big.zip64).toEqual([6 + 5000 + 6000 + 7]);
    expect(read(zip, small, false)).toBe("<a/>");
    expect(read(zip, big, true)).toBe(PARTS[1][1].join(""));
    expect(read(zip, last, false)).toBe("<z>tail</z>");
  });

  it("a directory past the threshold: offsets in zip64 fields, the zip64 end record and its locator before the end record", () => {
    const zip = archive(new ZipWriter(undefined, 40), PARTS);
    const { entries, zip64End } = directory(zip);
    expect(zip64End).toBe(true);
    expect(entries.length).toBe(3);
    // the first entry starts at 0: its offset fits; the later ones' do not
    expect(entries[0].offset).toBe(0);
    expect(entries[1].zip64.at(-1)).toBe(entries[1].offset);
    expect(entries[1].offset).toBeGreaterThan(40);
    expect(entries.map((e) => read(zip, e, e.size >= 40 || e.compressed >= 40))).toEqual(PARTS.map(([, pieces]) => pieces.join("")));
  });

  it("gathers small pieces into one buffer and deflates a big piece alone, whatever their sizes", () => {
    const small = Array.from({ length: 40_000 }, (_, i) => `<r n="${i}">é€😀</r>`);
    const big = "x".repeat(300_000) + "é".repeat(200_000);
    const pieces = [...small.slice(0, 20_000), big, Buffer.from("<bytes/>"), ...small.slice(20_000), ""];
    const zip = new ZipWriter();
    const out = [zip.begin("sheet.xml")];
    const written = pieces.map((p) => zip.write(p));
    // most pieces wait in the buffer: only those that filled it, and the big one, come out
    expect(written.filter((b) => b.length).length).toBeLessThan(10);
    out.push(...written, zip.end(), zip.finish());
    const archive = Buffer.concat(out);
    const [entry] = directory(archive).entries;
    expect(read(archive, entry, false)).toBe(pieces.map(String).join(""));
  });
});
