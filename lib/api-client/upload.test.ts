import { describe, expect, it } from "vitest";
import { readLines } from "./upload";

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const bytes = chunks.map((c) => new TextEncoder().encode(c));
  return new ReadableStream({
    start(controller) {
      for (const b of bytes) controller.enqueue(b);
      controller.close();
    },
  });
}

describe("readLines", () => {
  it("splits lines across chunks, skips blank ones, keeps a last line without newline", async () => {
    const lines: string[] = [];
    await readLines(streamOf(['{"a":', '1}\n\n{"b"', ":2}\n", '{"c":3}']), (l) => lines.push(l));
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it("decodes a character split between chunks", async () => {
    const euro = new TextEncoder().encode("€\n");
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(euro.slice(0, 1));
        c.enqueue(euro.slice(1));
        c.close();
      },
    });
    const lines: string[] = [];
    await readLines(stream, (l) => lines.push(l));
    expect(lines).toEqual(["€"]);
  });
});
