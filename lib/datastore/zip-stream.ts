// A zip archive written front to back, for downloads that stream (the dump's XLSX): each entry
// deflated as it comes, its CRC and sizes in a data descriptor after it, the directory at the
// end, so nothing is held but the entry's current piece. Not zip64: an entry stops at 4 GiB.
import zlib from "node:zlib";

const LIMIT = 0xffffffff;

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

/** 1980-01-01 00:00 in DOS time and date, as Excel's own files carry when none is kept. */
const DOS_TIME = 0;
const DOS_DATE = (0 << 9) | (1 << 5) | 1;
/** Bit 3: sizes and CRC follow the data; bit 11: the name is UTF-8. */
const FLAGS = 0x0808;

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

  constructor(private readonly level = zlib.constants.Z_BEST_SPEED) {}

  private count(parts: Buffer[]): Buffer {
    const out = Buffer.concat(parts);
    this.offset += out.length;
    return out;
  }

  /** Starts an entry: its local header. */
  begin(name: string): Buffer {
    if (this.current) throw new Error("zip: an entry is open");
    const n = Buffer.from(name, "utf8");
    this.current = { name: n, crc: 0, compressed: 0, size: 0, offset: this.offset };
    return this.count([u32(0x04034b50), u16(20), u16(FLAGS), u16(8), u16(DOS_TIME), u16(DOS_DATE), u32(0), u32(0), u32(0), u16(n.length), u16(0), n]);
  }

  /** A piece of the open entry, deflated (a block that does not end the stream). */
  write(data: string | Buffer): Buffer {
    const e = this.current!;
    const raw = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    e.crc = zlib.crc32(raw, e.crc);
    e.size += raw.length;
    const out = zlib.deflateRawSync(raw, { level: this.level, finishFlush: zlib.constants.Z_SYNC_FLUSH });
    e.compressed += out.length;
    if (e.size > LIMIT || e.compressed > LIMIT) throw new Error("zip: an entry past 4 GiB needs zip64, which this writer does not write");
    return this.count([out]);
  }

  /** Ends the open entry: the deflate stream's last block, then its data descriptor. */
  end(): Buffer {
    const e = this.current!;
    const last = Buffer.from([0x03, 0x00]); // an empty final block
    e.compressed += last.length;
    this.entries.push(e);
    this.current = null;
    return this.count([last, u32(0x08074b50), u32(e.crc), u32(e.compressed), u32(e.size)]);
  }

  /** A whole entry at once. */
  entry(name: string, data: string): Buffer {
    return Buffer.concat([this.begin(name), this.write(data), this.end()]);
  }

  /** The central directory and its end record. */
  finish(): Buffer {
    const start = this.offset;
    const dir = this.entries.map((e) =>
      Buffer.concat([
        u32(0x02014b50), u16(20), u16(20), u16(FLAGS), u16(8), u16(DOS_TIME), u16(DOS_DATE), u32(e.crc), u32(e.compressed), u32(e.size),
        u16(e.name.length), u16(0), u16(0), u16(0), u16(0), u32(0), u32(e.offset), e.name,
      ]),
    );
    const body = this.count(dir);
    if (this.offset > LIMIT) throw new Error("zip: an archive past 4 GiB needs zip64, which this writer does not write");
    const n = this.entries.length;
    return Buffer.concat([body, this.count([u32(0x06054b50), u16(0), u16(0), u16(n), u16(n), u32(body.length), u32(start), u16(0)])]);
  }
}
