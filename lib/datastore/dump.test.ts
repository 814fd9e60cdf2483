import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDump } from "./dump";
import type { DatastoreEngine } from "./engine";
import { openEngine } from "./open";

let engine: DatastoreEngine | undefined;
afterEach(async () => {
  await engine?.close();
});

describe("a dump", () => {
  it("releases the engine's reader when closed before any piece was taken", async () => {
    engine = await openEngine({ file: path.join(fs.mkdtempSync(path.join(os.tmpdir(), "dump-")), "d.db"), readWorkers: 0 });
    await engine.createResource({ id: "t", name: "t", description: "", private: false }, [{ id: "n", type: "int4" }]);
    await engine.write("t", [{ n: 1 }, { n: 2 }], "insert");
    const returned: string[] = [];
    const inner = engine;
    // The engine as the dump sees it, noting when its reader is returned.
    const spy = new Proxy(inner, {
      get(target, key) {
        if (key !== "iterate") return Reflect.get(target, key);
        return (...args: Parameters<DatastoreEngine["iterate"]>) => {
          const chunks = target.iterate(...args);
          const ret = chunks.return?.bind(chunks);
          chunks.return = async (v) => {
            returned.push("reader");
            return (await ret?.(v)) ?? { done: true, value: undefined };
          };
          return chunks;
        };
      },
    });
    const dump = await openDump({ engine: spy, tokens: undefined as never, user: { scope: "admin" } }, "t", {});
    await dump.pieces.return();
    expect(returned).toEqual([]); // an unstarted generator's finally does not run
    await dump.close();
    expect(returned).toEqual(["reader"]);
  });

  it("asks for the next chunk while this one is written, one ahead; a read ahead that fails is the download's error", async () => {
    engine = await openEngine({ file: path.join(fs.mkdtempSync(path.join(os.tmpdir(), "dump-")), "d.db"), readWorkers: 0 });
    await engine.createResource({ id: "t", name: "t", description: "", private: false }, [{ id: "n", type: "int4" }]);
    const asked: number[] = [];
    // The engine's chunks as the dump sees them: one row each, the third read failing.
    const spy = new Proxy(engine, {
      get(target, key) {
        if (key !== "iterate") return Reflect.get(target, key);
        return async function* () {
          for (let i = 1; ; i++) {
            asked.push(i);
            if (i === 3) throw new Error("the third read failed");
            yield [[i, i * 10]];
          }
        };
      },
    });
    const unhandled: unknown[] = [];
    const note = (e: unknown) => unhandled.push(e);
    process.on("unhandledRejection", note);
    try {
      const dump = await openDump({ engine: spy, tokens: undefined as never, user: { scope: "admin" } }, "t", {});
      expect(asked).toEqual([1]); // read before any byte, so a refused query is an error answer
      expect((await dump.pieces.next()).value).toBe("_id,n\r\n1,10\n");
      expect(asked).toEqual([1, 2]);
      expect((await dump.pieces.next()).value).toBe("2,20\n");
      expect(asked).toEqual([1, 2, 3]);
      // the failed read waits for the writer (a slow client) without counting as unhandled
      await new Promise((r) => setTimeout(r, 20));
      expect(unhandled).toEqual([]);
      await expect(dump.pieces.next()).rejects.toThrow("the third read failed");
    } finally {
      process.off("unhandledRejection", note);
    }
  });
});
