// A writer's connection is closed after a number of write transactions (releaseWriter): a
// server process keeps every table's trigger it ran, and each create walked them all.
import type pg from "pg";
import { describe, expect, it } from "vitest";
import { releaseWriter } from "./connection";

/** A checked-out connection that records how it was given back. */
function fakeClient() {
  const released: boolean[] = [];
  const client = { release: (destroy?: boolean | Error) => void released.push(destroy === true) } as unknown as pg.PoolClient;
  return { client, released };
}

describe("releaseWriter", () => {
  it("gives a connection back to its pool 99 times, then closes it on its 100th write transaction", () => {
    const { client, released } = fakeClient();
    for (let i = 0; i < 100; i++) releaseWriter(client);
    expect(released.slice(0, 99).every((d) => d === false)).toBe(true);
    expect(released[99]).toBe(true);
  });

  it("counts each connection's write transactions apart", () => {
    const a = fakeClient();
    const b = fakeClient();
    for (let i = 0; i < 60; i++) {
      releaseWriter(a.client);
      releaseWriter(b.client);
    }
    expect([...a.released, ...b.released].some((d) => d)).toBe(false);
  });
});
