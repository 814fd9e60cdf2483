// This process's uploads' imports (SQLite's): a cancel and a commit decided once, whichever
// comes first (on the import's thread, at the gate), and a cancel that meets a commit under way
// waits for its outcome.
import { describe, expect, it } from "vitest";
import { LocalImports, decideCommit } from "./local-imports";

const ID = "00000000-0000-4000-8000-000000000001";

describe("LocalImports", () => {
  it("one attempt holds an upload until it is stale; the owner's cancel wins over a later finish", async () => {
    let now = 0;
    const imports = new LocalImports(() => now);
    expect((await imports.claim(ID, "me", "a", 30)).claim).toBe("a");
    expect((await imports.claim(ID, "me", "b", 30)).claim).toBe("a");
    expect(await imports.report(ID, "a", { rows: 5 })).toBe("importing");
    expect(await imports.report(ID, "b", { rows: 1 })).toBeUndefined();
    expect(await imports.get(ID)).toMatchObject({ state: "importing", progress: { rows: 5 } });

    expect(await imports.cancel(ID, "another")).toMatchObject({ cancelled: false, row: { state: "importing" } });
    expect(await imports.cancel(ID, "me")).toMatchObject({ cancelled: true, row: { state: "cancelled" } });
    expect(await imports.finish(ID, "a")).toBe(false);
    expect(decideCommit(imports.gate(ID, "a")!)).toBe(false);
    expect(await imports.end(ID, "a")).toBe("cancelled");
    expect(await imports.get(ID)).toBeUndefined();

    await imports.claim(ID, "me", "c", 30);
    now += 31_000;
    expect(await imports.importing(30)).toEqual([]);
    expect((await imports.claim(ID, "me", "d", 30)).claim).toBe("d");
  });

  it("a cancel during the commit waits for it: imported when it committed, cancelled when it did not", async () => {
    const imports = new LocalImports();
    await imports.claim(ID, "me", "a", 30);
    expect(decideCommit(imports.gate(ID, "a")!)).toBe(true); // as the import's thread does
    expect(await imports.finish(ID, "a")).toBe(false); // taken once
    let answered = false;
    const cancel = imports.cancel(ID, "me").finally(() => (answered = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(answered).toBe(false);
    expect(await imports.end(ID, "a")).toBeUndefined(); // held while committing
    imports.settle(ID, "a", "r1");
    expect(await cancel).toMatchObject({ cancelled: false, row: { state: "imported", resourceId: "r1" } });

    const other = "00000000-0000-4000-8000-000000000002";
    await imports.claim(other, "me", "b", 30);
    await imports.finish(other, "b");
    const second = imports.cancel(other, "me");
    imports.settle(other, "b", null); // the commit failed: rolled back
    expect(await second).toMatchObject({ cancelled: true, row: { state: "cancelled" } });
  });

  it("sweeps what was not written for the given time, but an import committing", async () => {
    let now = 0;
    const imports = new LocalImports(() => now);
    await imports.claim(ID, "me", "a", 30);
    await imports.finish(ID, "a");
    now += 10_000;
    await imports.sweep(5);
    expect(await imports.get(ID)).toBeDefined();
    imports.settle(ID, "a", "r1");
    now += 10_000;
    await imports.sweep(5);
    expect(await imports.get(ID)).toBeUndefined();
  });
});
