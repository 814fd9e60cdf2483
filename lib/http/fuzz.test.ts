// The short fuzz run (the long one is `npm run fuzz`): generated malformed and hostile requests
// for every action and the dump route, through the real handlers. Each answer must keep the
// promise judged in lib/test/fuzz.ts: no 5xx, the contract's envelope, nothing written by a
// rejected write (checksum of every table), no private data or token secret where it may not be.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, currentStore, freshDb, isPostgres } from "../test/api";
import { dumpCase, fuzzCase, paramCase, transportCase, type FuzzCase } from "../test/arbitraries";
import { CANARY, createWorld, judge, materialize, newStats, runCase, type Target, type World } from "../test/fuzz";

let target: Target;
let world: World;
const stats = newStats();
const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

beforeAll(async () => {
  freshDb();
  const { inProcessTarget } = await import("../test/fuzz");
  target = await inProcessTarget(currentStore());
  world = await createWorld(target, ADMIN);
});

afterAll(async () => {
  await target?.close?.();
});

// Half as many cases on PostgreSQL: the validation that refuses most of them is the same code on
// both engines (run in full on SQLite), and each case there costs a checksum over the network.
const share = isPostgres ? 0.5 : 1;

async function property(arb: fc.Arbitrary<FuzzCase>, numRuns: number) {
  await fc.assert(
    fc.asyncProperty(arb, async (c) => {
      const problems = await runCase(target, world, c, stats);
      expect(problems, stats.failures.at(-1)?.sent).toEqual([]);
    }),
    { numRuns: Math.round(numRuns * share), seed, endOnFailure: true },
  );
}

// Each case fingerprints the whole store to prove a refusal changed nothing: on PostgreSQL that
// is a round trip per table, so a run of hundreds of cases needs more than the default timeout.
describe("fuzz (short run)", { timeout: 120_000 }, () => {
  it("the judge catches a 500, a bad envelope, a changed database, private data and secrets", () => {
    const c: FuzzCase = { action: "datastore_upsert", token: "none", method: "POST", encoding: "json", params: { resource_id: "$PRIVATE" } };
    const sent = materialize(c, world);
    const envelope = (error: Record<string, unknown>) => JSON.stringify({ help: "h", success: false, error });
    const fine = { status: 403, contentType: "application/json;charset=utf-8", text: envelope({ __type: "Authorization Error", message: "Access denied: no" }) };
    expect(judge(c, sent, fine, world, "a", "a")).toEqual([]);
    expect(judge(c, sent, fine, world, "a", "b")).toEqual([expect.stringMatching(/database changed after a rejected/)]);
    expect(judge(c, sent, { ...fine, status: 500 }, world, "a", "a")).toContain("status 500");
    expect(judge(c, sent, { ...fine, text: envelope({ __type: "Validation Error", message: "x" }) }, world, "a", "a")).toEqual([expect.stringMatching(/__type/)]);
    expect(judge(c, sent, { ...fine, text: envelope({ __type: "Authorization Error", message: CANARY }) }, world, "a", "a")).toEqual(["private data in the answer"]);
    expect(judge(c, sent, { ...fine, text: envelope({ __type: "Authorization Error", message: world.secrets.read }) }, world, "a", "a")).toEqual([
      "the read token's secret in the answer",
    ]);
  });

  it("hostile parameters for every action", async () => {
    await property(paramCase, 300);
  });

  it("broken transport: invalid UTF-8, bad and deep JSON, odd content types, wrong methods and names", async () => {
    await property(transportCase, 200);
  });

  it("hostile dump requests", async () => {
    await property(dumpCase, 100);
  });

  it("a mix of everything", async () => {
    await property(fuzzCase, 200);
    // Most cases are refused, but not all: the generators reach the actions' success paths too.
    expect(stats.byStatus[200] ?? 0).toBeGreaterThan(20 * share);
    expect(stats.byStatus[409] ?? 0).toBeGreaterThan(100 * share);
  });
});
