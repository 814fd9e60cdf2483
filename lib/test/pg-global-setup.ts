// The postgres project's globalSetup (vitest.config.mts): one throwaway cluster for the whole
// run, stopped afterwards; its URLs go to the tests through provide/inject (lib/test/pg-setup.ts).
// Without PostgreSQL's binaries it says so and provides nothing: the project's tests are then
// skipped (lib/test/pg-runner.ts).
import type { TestProject } from "vitest/node";
import { pgUnavailableReason, startCluster } from "./pg-cluster";

declare module "vitest" {
  export interface ProvidedContext {
    /** The test cluster: `url` is role `app` on database `app`; `superUrl` the superuser's. */
    pg: { url: string; superUrl: string } | null;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  const reason = pgUnavailableReason();
  if (reason) {
    console.log(`PostgreSQL binaries not found (${reason}): skipping the PostgreSQL runs`);
    project.provide("pg", null);
    return;
  }
  const started = Date.now();
  const cluster = await startCluster();
  console.log(`postgres project: a throwaway PostgreSQL cluster on 127.0.0.1:${cluster.port}, started in ${Date.now() - started} ms`);
  project.provide("pg", { url: cluster.url(), superUrl: cluster.superUrl });
  return () => cluster.stop();
}
