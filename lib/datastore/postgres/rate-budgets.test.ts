// Issue 29's goal: with two app servers on one PostgreSQL, a token's budget is shared: what it
// gets through both together stays within 10% of its budget (the burst, plus the rate for the
// time it asked), though each server answers from slices it holds (rate-budgets.ts).
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, untilReady, type AppProcess } from "../../test/app-process";

const url = process.env.DATASTORE_DATABASE_URL?.trim();
const ADMIN = "rate-admin-token";
/** 10 a second, 100 at once. */
const PER_MINUTE = 600;
const BURST = 100;
const SECONDS = 5;

describe.skipIf(!url)("a token's request budget across two app servers on one PostgreSQL", () => {
  const schema = `t_rate_${randomBytes(6).toString("hex")}`;
  let A: AppProcess;
  let B: AppProcess;

  beforeAll(async () => {
    const env = { DATASTORE_PG_SCHEMA: schema, DATASTORE_PG_POOL: "4", DATASTORE_ADMIN_TOKEN: ADMIN, DATASTORE_SAMPLE_DATA: "0", DATASTORE_RATE_TOKEN: `${PER_MINUTE}:${BURST}` };
    [A, B] = await Promise.all([startApp("A", env), startApp("B", env)]);
    await Promise.all([untilReady(A, 120_000), untilReady(B, 120_000)]);
  }, 180_000);

  afterAll(async () => {
    await Promise.all([A?.kill(), B?.kill()]);
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await db.end();
  });

  it("what the token gets through both servers together is within 10% of its one budget", async () => {
    const created = await fetch(`${A.url}/api/action/api_token_create`, { method: "POST", headers: { authorization: ADMIN, "content-type": "application/json" }, body: JSON.stringify({ name: "shared", scope: "read" }) });
    const token = ((await created.json()) as { result: { token: string } }).result.token;
    const got = { A: 0, B: 0 };
    const other = { refused: 0, failed: 0 };
    const start = performance.now();
    const until = start + SECONDS * 1000;
    const loop = async (app: AppProcess, name: "A" | "B") => {
      while (performance.now() < until) {
        const res = await fetch(`${app.url}/api/action/datastore_whoami`, { method: "POST", headers: { authorization: token, "content-type": "application/json" }, body: "{}" });
        await res.arrayBuffer();
        if (res.status === 200) got[name]++;
        else if (res.status === 429) other.refused++;
        else other.failed++;
      }
    };
    await Promise.all([A, B].flatMap((app, i) => Array.from({ length: 3 }, () => loop(app, i === 0 ? "A" : "B"))));
    const elapsed = (performance.now() - start) / 1000;
    const budget = BURST + (PER_MINUTE / 60) * elapsed;
    const total = got.A + got.B;
    console.log(`rate budgets: ${total} passed (A ${got.A}, B ${got.B}), ${other.refused} refused in ${elapsed.toFixed(1)} s; budget ${budget.toFixed(0)} (${((total / budget - 1) * 100).toFixed(1)}%)`);
    expect(other.failed).toBe(0);
    expect(other.refused, "the token asked for more than its budget").toBeGreaterThan(0);
    expect(Math.min(got.A, got.B), "both servers served the token").toBeGreaterThan(0);
    expect(total).toBeLessThanOrEqual(budget * 1.1);
    expect(total).toBeGreaterThanOrEqual(budget * 0.9);
  }, 60_000);
});
