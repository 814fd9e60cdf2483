// Nothing lost under faults (issue 27): a process killed in the middle of an upsert batch
// leaves the table and its history at the same last committed version. A child process
// upserts every row again and again (history-kill-child.ts) and is killed with SIGKILL at a
// random moment; the store then reads whole versions only: the rows, every version's rows
// as_of, and the images all agree.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { openEngine } from "../open";

const ROWS = 2000;

it("a process killed mid-batch leaves the rows and their history at its last committed version", async () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "history-kill-")), "k.db");
  const setup = await openEngine({ file, readWorkers: 0 });
  await setup.createResource({ id: "k", name: "k", description: "", private: false }, [{ id: "n", type: "int4" }]);
  await setup.write("k", Array.from({ length: ROWS }, () => ({ n: 0 })), "insert");
  await setup.close();

  const child = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "history-kill-child.ts")], {
    env: { ...process.env, DATASTORE_DB: file, KILL_ROWS: String(ROWS) },
  });
  let said = "";
  const committed = () => Number(/batch (\d+)\n$/.exec(said)?.[1] ?? 0);
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      said += d.toString();
      // After a few batches, at a random moment of the next one.
      if (committed() === 3) setTimeout(() => child.kill("SIGKILL"), Math.random() * 50);
    });
    child.on("exit", () => resolve());
    child.on("error", reject);
  });
  const last = committed();
  expect(last).toBeGreaterThanOrEqual(3);

  const engine = await openEngine({ file, readWorkers: 0 });
  try {
    const r = (await engine.getResource("k"))!;
    const state = await engine.historyState(r);
    const all = { filters: [], fts: [], columns: ["n"], sort: [], distinct: false, limit: ROWS + 1, offset: 0, includeTotal: true };
    const ns = async (asOf?: number) => {
      const out = await engine.search(r, { ...all, ...(asOf === undefined ? {} : { asOf }) });
      return { total: out.total, values: [...new Set(out.rows.map((row) => row[0]))] };
    };
    // The rows are one batch's, all of them: the last committed (or the one the kill came too late for).
    const now = await ns();
    expect(now.total).toBe(ROWS);
    expect(now.values).toHaveLength(1);
    const batch = now.values[0] as number;
    expect([last, last + 1]).toContain(batch);
    // Its version is the log's last, and every earlier batch reads whole as of its version.
    expect(state.written).toBe(state.version);
    for (let b = 0; b < batch; b++) expect(await ns(state.version - (batch - b))).toEqual({ total: ROWS, values: [b] });
    // Each batch after the first kept one image of each row, and no more.
    expect((await engine.historySize(r)).rows).toBe(ROWS * batch);
    const images = await engine.rowImages(r, { id: 1 });
    expect(images?.images.map((i) => i.record.n)).toEqual(Array.from({ length: batch + 1 }, (_, i) => i));
  } finally {
    await engine.close();
  }
});
