// A request body to a file, as it arrives: written with backpressure (the socket is read no
// faster than the disk takes it), counted, and stopped past the limit. On any failure (too
// large, the client gone, a full disk) the file is removed before the error goes on.
import fs from "node:fs";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { hasBrand, mark } from "../brand";

/** The body passed the limit; nothing was kept. */
export class TooLarge extends Error {
  static [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, "TooLarge");
  }

  constructor(readonly limit: number) {
    super(`Upload is larger than the limit of ${limit} bytes (DATASTORE_MAX_UPLOAD_BYTES)`);
    mark(this, "TooLarge");
  }
}

/** The client went away before its body was all there; nothing was kept. */
export class CutOff extends Error {
  static [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, "CutOff");
  }

  constructor() {
    super("the upload was cut off");
    mark(this, "CutOff");
  }
}

/** Writes `body` to `file` (created; it must not exist); returns its size in bytes. */
export async function receive(body: AsyncIterable<Uint8Array>, file: string, limit: number): Promise<number> {
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > limit) callback(new TooLarge(limit));
      else callback(null, chunk);
    },
  });
  const out = fs.createWriteStream(file, { flags: "wx", mode: 0o600 });
  try {
    await pipeline(body, counter, out);
  } catch (e) {
    // The file opens asynchronously: removed before its open completes, it would come back.
    if (!out.closed) await new Promise<void>((resolve) => out.once("close", () => resolve()));
    fs.rmSync(file, { force: true });
    throw clientGone(e) ? new CutOff() : e;
  }
  return size;
}

/** Whether an error means the client went away mid-body. */
function clientGone(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  return code === "ECONNRESET" || code === "ERR_STREAM_PREMATURE_CLOSE" || code === "ECONNABORTED" || (e as Error | null)?.message === "aborted";
}
