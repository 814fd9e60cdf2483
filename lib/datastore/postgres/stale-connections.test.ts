// Pooled connections that died without a word (issue 24's review: "a silently dead server is
// noticed late"). A TCP proxy of this file's own sits between the engine and the test cluster
// and cuts every connection silently: the server's side is closed, the engine's is left open
// and reset only when the engine next sends on it, as a server host that restarted answers a
// connection it no longer knows. The next read must still be answered (once on a fresh
// connection); a write whose COMMIT was sent when its connection died must not run twice.
import { randomBytes } from "node:crypto";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config } from "../../config";
import type { SearchQuery } from "../engine";
import { createPool } from "./connection";
import { openPostgresEngine, type PostgresEngine } from "./engine";

const url = process.env.DATASTORE_DATABASE_URL;
const schema = `t_stale_${randomBytes(4).toString("hex")}`;
const all: SearchQuery = { filters: [], fts: [], columns: ["_id", "v"], sort: [{ field: "_id", desc: false, nullsFirst: false }], distinct: false, limit: 1000, offset: 0, includeTotal: true };

/** A proxy to `port` whose connections can be cut without telling the client. */
async function silentProxy(port: number) {
  const pairs = new Set<{ client: net.Socket; server: net.Socket; cut: boolean }>();
  /** Armed: the next COMMIT reaches the server, its answer never reaches the client. */
  let loseCommit = false;
  const proxy = net.createServer((client) => {
    const server = net.connect(port, "127.0.0.1");
    const pair = { client, server, cut: false };
    pairs.add(pair);
    let committing = false;
    client.on("data", (chunk) => {
      if (pair.cut) return client.resetAndDestroy();
      if (loseCommit && chunk.includes("COMMIT")) {
        loseCommit = false;
        committing = true;
      }
      server.write(chunk);
    });
    server.on("data", (chunk) => {
      if (!committing) return void client.write(chunk);
      pair.cut = true;
      server.destroy();
      client.resetAndDestroy();
    });
    const drop = () => {
      pairs.delete(pair);
      if (!pair.cut) client.destroy();
      server.destroy();
    };
    client.on("error", drop).on("close", drop);
    server.on("error", drop).on("close", () => (pair.cut ? pairs.delete(pair) : drop()));
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  return {
    port: (proxy.address() as net.AddressInfo).port,
    /** Closes the server's side of every connection; the client hears nothing until it sends. */
    cutSilently(): number {
      for (const p of pairs) {
        p.cut = true;
        p.server.destroy();
      }
      return pairs.size;
    },
    loseNextCommit(): void {
      loseCommit = true;
    },
    close: () => {
      for (const p of pairs) p.client.destroy();
      return new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}

describe.skipIf(!url)("pooled connections that died silently", () => {
  let proxy: Awaited<ReturnType<typeof silentProxy>>;
  let engine: PostgresEngine;
  const viaProxy = () => {
    const u = new URL(url!);
    u.port = String(proxy.port);
    return u.toString();
  };
  const rows = async () => (await engine.search((await engine.getResource("stale"))!, all)).rows;

  beforeAll(async () => {
    proxy = await silentProxy(Number(new URL(url!).port));
    engine = await openPostgresEngine({ url: viaProxy(), schema, poolSize: 4, limits: config });
    await engine.createResource({ id: "stale", name: "stale", description: "", private: false }, [{ id: "v", type: "text" }]);
    await engine.write("stale", [{ v: "a" }, { v: "b" }], "insert");
  });
  afterAll(async () => {
    await engine?.close();
    await proxy?.close();
    const cleanup = await openPostgresEngine({ url: url!, schema, poolSize: 2, limits: config });
    await cleanup.close();
  });

  it("every connection has TCP keepalive, probing after seconds rather than the OS's two hours", async () => {
    const pool = createPool({ url: url!, schema, size: 2, role: "primary", statementTimeoutMs: 0 });
    try {
      expect(pool.options).toMatchObject({ keepAlive: true });
      expect(pool.options.keepAliveInitialDelayMillis).toBeGreaterThan(0);
      expect(pool.options.keepAliveInitialDelayMillis).toBeLessThanOrEqual(60_000);
    } finally {
      await pool.end();
    }
  });

  it("a read after every idle connection died silently is answered, on a fresh connection", async () => {
    // Several idle connections in the pool, all of which then die.
    await Promise.all([rows(), rows(), rows()]);
    expect(proxy.cutSilently()).toBeGreaterThan(1);
    expect(await rows()).toEqual([[1, "a"], [2, "b"]]);
    // The catalog's reads too (a listing, as a request's first lookup may be).
    proxy.cutSilently();
    expect((await engine.listResources()).map((r) => r.id)).toContain("stale");
  });

  it("a write after a silent cut runs once; one whose COMMIT went unanswered is not run again", async () => {
    await Promise.all([rows(), rows()]);
    proxy.cutSilently();
    await engine.write("stale", [{ v: "c" }], "insert");
    expect(await rows()).toEqual([[1, "a"], [2, "b"], [3, "c"]]);
    // The server commits; the engine never hears so: it answers a failure, and does not insert again.
    proxy.loseNextCommit();
    await expect(engine.write("stale", [{ v: "d" }], "insert")).rejects.toThrow(/cannot be reached/);
    expect((await rows()).map((r) => r[1])).toEqual(["a", "b", "c", "d"]);
  });
});
