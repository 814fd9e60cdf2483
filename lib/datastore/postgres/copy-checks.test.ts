import { describe, expect, it } from "vitest";
import { CHECKS_PER_STATEMENT, CopyChecks } from "./copy-checks";
import type { PgResource } from "./resource";

const copy = (id: string, version = 1) => ({ id, table: `t_${id}`, version, private: false }) as unknown as PgResource;

/** A statement runner whose statements the test answers one by one. */
function runner() {
  const sent: { copies: { r: PgResource; name: string }[]; answer: (v: boolean[] | Error) => void }[] = [];
  const run = (copies: { r: PgResource; name: string }[]) =>
    new Promise<boolean[]>((resolve, reject) => sent.push({ copies, answer: (v) => (v instanceof Error ? reject(v) : resolve(v)) }));
  return { sent, run };
}

const turn = () => new Promise((r) => setImmediate(r));

describe("CopyChecks", () => {
  it("checks asked in one turn share a statement; one copy asked twice is checked once", async () => {
    const { sent, run } = runner();
    const checks = new CopyChecks(run);
    const asked = [checks.check(copy("a"), "a"), checks.check(copy("a"), "a"), checks.check(copy("a", 2), "a"), checks.check(copy("a"), "alias-of-a")];
    await turn();
    expect(sent).toHaveLength(1);
    expect(sent[0].copies.map((c) => `${c.name}@${c.r.version}`)).toEqual(["a@1", "a@2", "alias-of-a@1"]);
    sent[0].answer([false, true, true]);
    expect(await Promise.all(asked)).toEqual([false, false, true, true]);
  });

  it("never answers a check from a statement sent before it was asked, nor waits for one", async () => {
    const { sent, run } = runner();
    const checks = new CopyChecks(run);
    const first = checks.check(copy("a"), "a");
    await turn();
    expect(sent).toHaveLength(1);
    // Asked while the first statement is on its way, which may have been read before a write
    // this caller saw acknowledged: it gets a statement of its own, sent at once.
    const second = checks.check(copy("a"), "a");
    await turn();
    expect(sent).toHaveLength(2);
    sent[1].answer([false]);
    expect(await second).toBe(false);
    sent[0].answer([true]);
    expect(await first).toBe(true);
  });

  it("sends at most CHECKS_PER_STATEMENT copies a statement, and a failure fails only its own", async () => {
    const { sent, run } = runner();
    const checks = new CopyChecks(run);
    const asked = Array.from({ length: CHECKS_PER_STATEMENT + 1 }, (_, i) => checks.check(copy(`r${i}`), `r${i}`));
    await turn();
    expect(sent.map((s) => s.copies.length)).toEqual([CHECKS_PER_STATEMENT, 1]);
    sent[0].answer(new Error("connection lost"));
    sent[1].answer([true]);
    const settled = await Promise.allSettled(asked);
    expect(settled.filter((s) => s.status === "rejected")).toHaveLength(CHECKS_PER_STATEMENT);
    expect(settled[CHECKS_PER_STATEMENT]).toEqual({ status: "fulfilled", value: true });
    expect(checks.statements).toBe(2);
  });
});
