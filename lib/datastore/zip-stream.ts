// A zip archive written front to back, for downloads that stream (the dump's XLSX): each entry
// deflated as it comes, its CRC and sizes in a data descriptor after it, the directory at the
// end, so nothing is held but the entry's current piece. Written text is encoded into one reused
// buffer and deflated a full buffer at a time: the writer's caller can hand it small strings,
// which die young in V8 (a chunk's text as one string reached the old space and cost its
// collections more than the deflating).
//
// Zip64 only where a size or an offset needs it, as Java's and Go's writers do: an entry's sizes
// are not known when its header goes out, so that header carries version 4.5 (Excel wants it on
// an entry past 4 GiB, and opens it on small ones) and no zip64 field; an entry past 4 GiB gets
// a data descriptor with 8-byte sizes and a zip64 field in the directory holding only what
// overflowed; the zip64 end records come only when the directory itself lies past 4 GiB (Excel
// reads no zip64 directory, so a workbook short of that keeps opening in it).
import zlib from "node:zlib";

/** The largest value a 32-bit field holds; 0xffffffff itself says "see the zip64 field". */
const LIMIT = 0xffffffff;

const EMPTY = Buffer.alloc(0);

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
}

function u64(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
}

/** 1980-01-01 00:00 in DOS time and date, as Excel's own files carry when none is kept. */
const DOS_TIME = 0;
const DOS_DATE = (0 << 9) | (1 << 5) | 1;
/** Bit 3: sizes and CRC follow the data; bit 11: the name is UTF-8. */
const FLAGS = 0x0808;
/** Version 2.0 (deflate) and 4.5 (zip64), in "version needed to extract". */
const V20 = 20;
const V45 = 45;

/** Raw bytes gathered before they are deflated together. */
const PIECE = 256 * 1024;

interface Written {
  name: Buffer;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

export class ZipWriter {
  private offset = 0;
  private readonly entries: Written[] = [];
  private current: Written | null = null;
  private readonly raw = Buffer.allocUnsafe(PIECE);
  /** Bytes of `raw` not yet deflated. */
  private used = 0;

  /** `zip64From`: the size past which a field goes to zip64 (lowered only by tests, to see the
   *  zip64 records without writing 4 GiB). */
  constructor(
    private readonly level = zlib.constants.Z_BEST_SPEED,
    private readonly zip64From = LIMIT,
  ) {}

  private count(parts: Buffer[]): Buffer {
    const out = parts.length === 1 ? parts[0] : Buffer.concat(parts);
    this.offset += out.length;
    return out;
  }

  /** Starts an entry: its local header. */
  begin(name: string): Buffer {
    if (this.current) throw new Error("zip: an entry is open");
    const n = Buffer.from(name, "utf8");
    this.current = { name: n, crc: 0, compressed: 0, size: 0, offset: this.offset };
    return this.count([u32(0x04034b50), u16(V45), u16(FLAGS), u16(8), u16(DOS_TIME), u16(DOS_DATE), u32(0), u32(0), u32(0), u16(n.length), u16(0), n]);
  }

  /** A piece of the open entry: its deflated bytes, those of the buffer it filled (often none:
   *  the rest comes out with a later piece or with `end()`). */
  write(data: string | Buffer): Buffer {
    // a UTF-16 unit takes at most 3 bytes of UTF-8
    const room = typeof data === "string" ? data.length * 3 : data.length;
    if (this.used + room <= PIECE) {
      this.used += typeof data === "string" ? this.raw.write(data, this.used) : data.copy(this.raw, this.used);
      return EMPTY;
    }
    const out = this.deflate();
    if (room <= PIECE) {
      this.used = typeof data === "string" ? this.raw.write(data) : data.copy(this.raw);
      return out;
    }
    return Buffer.concat([out, this.deflate(typeof data === "string" ? Buffer.from(data, "utf8") : data)]);
  }

  /** Deflates `raw` (the gathered bytes, by default) as a block that does not end the stream. */
  private deflate(raw?: Buffer): Buffer {
    if (!raw) {
      raw = this.raw.subarray(0, this.used);
      this.used = 0;
    }
    if (!raw.length) return EMPTY;
    const e = this.current!;
    e.crc = zlib.crc32(raw, e.crc);
    e.size += raw.length;
    const out = zlib.deflateRawSync(raw, { level: this.level, finishFlush: zlib.constants.Z_SYNC_FLUSH });
    e.compressed += out.length;
    return this.count([out]);
  }

  /** Ends the open entry: the deflate stream's last block, then its data descriptor (8-byte
   *  sizes once either passes 32 bits). */
  end(): Buffer {
    const rest = this.deflate();
    const e = this.current!;
    const last = Buffer.from([0x03, 0x00]); // an empty final block
    e.compressed += last.length;
    this.entries.push(e);
    this.current = null;
    const big = e.compressed >= this.zip64From || e.size >= this.zip64From;
    const sizes = big ? [u64(e.compressed), u64(e.size)] : [u32(e.compressed), u32(e.size)];
    return Buffer.concat([rest, this.count([last, u32(0x08074b50), u32(e.crc), ...sizes])]);
  }

  /** A whole entry at once. */
  entry(name: string, data: string): Buffer {
    return Buffer.concat([this.begin(name), this.write(data), this.end()]);
  }

  /** An entry's directory header: a field that overflows holds 0xffffffff, and the zip64 field
   *  holds it instead (uncompressed size, compressed size, offset: those that overflowed, in
   *  that order). */
  private header(e: Written): Buffer {
    const over = (n: number) => n >= this.zip64From;
    const wide = [e.size, e.compressed, e.offset].filter(over);
    const extra = wide.length ? Buffer.concat([u16(0x0001), u16(wide.length * 8), ...wide.map(u64)]) : Buffer.alloc(0);
    const field = (n: number) => u32(over(n) ? LIMIT : n);
    return Buffer.concat([
      u32(0x02014b50), u16(V45), u16(wide.length ? V45 : V20), u16(FLAGS), u16(8), u16(DOS_TIME), u16(DOS_DATE), u32(e.crc), field(e.compressed), field(e.size),
      u16(e.name.length), u16(extra.length), u16(0), u16(0), u16(0), u32(0), field(e.offset), e.name, extra,
    ]);
  }

  /** The central directory and its end record, after the zip64 end record and its locator
   *  when the directory's offset or size passes 32 bits. */
  finish(): Buffer {
    const start = this.offset;
    const body = this.count(this.entries.map((e) => this.header(e)));
    const n = this.entries.length;
    if (start < this.zip64From && body.length < this.zip64From && n < 0xffff) {
      return Buffer.concat([body, this.count([u32(0x06054b50), u16(0), u16(0), u16(n), u16(n), u32(body.length), u32(start), u16(0)])]);
    }
    const record = this.offset;
    // zip64 end of central directory: its size counts what follows the size field (44 bytes)
    const zip64End = [u32(0x06064b50), u64(44), u16(V45), u16(V45), u32(0), u32(0), u64(n), u64(n), u64(body.length), u64(start)];
    const locator = [u32(0x07064b50), u32(0), u64(record), u32(1)];
    const end = [u32(0x06054b50), u16(0), u16(0), u16(Math.min(n, 0xffff)), u16(Math.min(n, 0xffff)), u32(LIMIT), u32(LIMIT), u16(0)];
    return Buffer.concat([body, this.count([...zip64End, ...locator, ...end])]);
  }
}
