// The throwaway cluster itself (lib/test/pg-cluster.ts): it starts, the app's role is what a
// deployment gives it, a replica follows the primary, and stop() leaves nothing behind. In the
// postgres project; it starts clusters of its own beside the run's.
import fs from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { pgUnavailableReason, sql, startCluster, startReplica, type PgCluster } from "./pg-cluster";

const reason = pgUnavailableReason();
if (reason) console.warn(`pg-cluster: PostgreSQL binaries not found (${reason}): skipping`);

describe.skipIf(reason)("a throwaway PostgreSQL cluster", () => {
  const started: PgCluster[] = [];
  afterAll(async () => {
    for (const c of started.reverse()) await c.stop();
  });

  it("starts on loopback with role app owning database app, not a superuser; a replica follows it; stop() removes it", async () => {
    const primary = await startCluster();
    started.push(primary);
    const [role] = await sql(primary.superUrl, "SELECT rolsuper, rolcanlogin FROM pg_roles WHERE rolname = 'app'");
    expect(role.rows).toEqual([{ rolsuper: false, rolcanlogin: true }]);
    const [owner] = await sql(primary.url(), "SELECT pg_get_userbyid(datdba) AS owner FROM pg_database WHERE datname = current_database()");
    expect(owner.rows).toEqual([{ owner: "app" }]);
    await sql(primary.url(), "CREATE SCHEMA s", "CREATE TABLE s.t (v text)", "INSERT INTO s.t VALUES ('written on the primary')");

    const replica = await startReplica(primary);
    started.push(replica);
    expect(replica.port).not.toBe(primary.port);
    await sql(primary.url(), "INSERT INTO s.t VALUES ('after the base backup')");
    let rows: unknown[] = [];
    for (let i = 0; i < 100 && rows.length < 2; i++) {
      rows = (await sql(replica.url(), "SELECT v FROM s.t ORDER BY v"))[0].rows;
      if (rows.length < 2) await new Promise((r) => setTimeout(r, 100));
    }
    expect(rows).toEqual([{ v: "after the base backup" }, { v: "written on the primary" }]);
    await expect(sql(replica.url(), "INSERT INTO s.t VALUES ('x')")).rejects.toThrow(/read-only transaction/);

    await replica.stop();
    await primary.stop();
    expect(fs.existsSync(primary.dataDir)).toBe(false);
    await expect(sql(primary.superUrl, "SELECT 1")).rejects.toThrow();
  }, 60_000);
});
