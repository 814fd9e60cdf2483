import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CutOff, TooLarge, receive } from "./receive";

async function* chunks(n: number, size: number, fail?: Error): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < n; i++) yield new Uint8Array(size).fill(65);
  if (fail) throw fail;
}

describe("receive", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "receive-"));

  it("writes the body and counts it", async () => {
    const file = path.join(dir, "ok");
    expect(await receive(chunks(10, 1000), file, 10_000)).toBe(10_000);
    expect(fs.statSync(file).size).toBe(10_000);
  });

  it("stops past the limit and removes the file", async () => {
    const file = path.join(dir, "big");
    await expect(receive(chunks(11, 1000), file, 10_000)).rejects.toBeInstanceOf(TooLarge);
    expect(fs.existsSync(file)).toBe(false);
  });

  it("removes the file when the body breaks off, and says the upload was cut off", async () => {
    const file = path.join(dir, "cut");
    await expect(receive(chunks(3, 1000, Object.assign(new Error("aborted"), { code: "ECONNRESET" })), file, 10_000)).rejects.toBeInstanceOf(CutOff);
    expect(fs.existsSync(file)).toBe(false);
  });
});
