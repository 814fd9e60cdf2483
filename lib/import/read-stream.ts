// Drains an object-mode stream in batches: every record already buffered is taken
// synchronously, so there is one await per batch rather than one per record.
import type { Readable } from "node:stream";

export async function* readInBatches<T>(stream: Readable, size: number, failure: () => unknown): AsyncGenerator<T[]> {
  let ended = false;
  let error: unknown = null;
  let wake: (() => void) | null = null;
  const poke = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  stream.on("readable", poke);
  stream.on("end", () => {
    ended = true;
    poke();
  });
  stream.on("error", (e) => {
    error ??= e;
    poke();
  });
  let batch: T[] = [];
  try {
    for (;;) {
      let record: T | null;
      while ((record = stream.read() as T | null) !== null) {
        batch.push(record);
        if (batch.length >= size) {
          yield batch;
          batch = [];
        }
      }
      error ??= failure();
      if (error) throw error;
      if (ended) break;
      await new Promise<void>((resolve) => (wake = resolve));
    }
    if (batch.length) yield batch;
  } finally {
    stream.destroy();
  }
}
