import { afterEach, describe, expect, it, vi } from "vitest";
import { translator } from "@/lib/i18n";
import { ApiError } from "./errors";
import { importUpload, readLines } from "./upload";

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

describe("importUpload's own failures, in the reader's language", () => {
  const french = translator("fr", "fr-FR");
  const progress = JSON.stringify({ progress: { phase: "loading", rows: 10, fraction: 0.1, rows_per_second: 100, seconds_left: 1 } });
  const ndjson = (body: ReadableStream<Uint8Array>) => new Response(body, { headers: { "Content-Type": "application/x-ndjson" } });
  const run = (t = french) => importUpload("u1", { mode: "new" }, { token: null }, {}, t);
  afterEach(() => vi.unstubAllGlobals());

  async function failure(promise: Promise<unknown>): Promise<ApiError> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }

  it("the server not reached: French, not the browser's words", async () => {
    vi.stubGlobal("fetch", () => Promise.reject(new TypeError("Failed to fetch")));
    const error = await failure(run());
    expect([error.kind, error.message]).toEqual(["network", "Le serveur n’a pas pu être joint pour démarrer l’import."]);
  });

  it("the connection lost mid-import", async () => {
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode(`${progress}\n`));
        c.error(new TypeError("network error"));
      },
    });
    vi.stubGlobal("fetch", () => Promise.resolve(ndjson(body)));
    const error = await failure(run());
    expect([error.kind, error.message]).toEqual(["network", "La connexion au serveur a été perdue pendant l’import."]);
  });

  it("the stream ended without a final line; English by default", async () => {
    vi.stubGlobal("fetch", () => Promise.resolve(ndjson(streamOf([`${progress}\n`]))));
    const error = await failure(run());
    expect([error.kind, error.message]).toEqual(["server", "Le serveur a terminé l’import sans donner de réponse."]);
    vi.stubGlobal("fetch", () => Promise.resolve(ndjson(streamOf([`${progress}\n`]))));
    expect((await failure(importUpload("u1", { mode: "new" }, { token: null }))).message).toBe("The server ended the import without an answer.");
  });

  it("a line that is not ours (a proxy's page) is not a lost connection; the final line after it still counts", async () => {
    vi.stubGlobal("fetch", () => Promise.resolve(ndjson(streamOf([`${progress}\n<html>proxy error</html>\n`]))));
    const error = await failure(run());
    expect([error.kind, error.message]).toEqual(["server", "Le serveur a terminé l’import sans donner de réponse."]);
    const final = JSON.stringify({ success: true, result: { resource_id: "r1" } });
    vi.stubGlobal("fetch", () => Promise.resolve(ndjson(streamOf([`${progress}\nnot json\n${final}\n`]))));
    expect(await run()).toEqual({ resource_id: "r1" });
  });
});
