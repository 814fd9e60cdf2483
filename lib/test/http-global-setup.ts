// The *-http projects' globalSetup (vitest.config.mts): the build `next start` serves, made once
// before any suite starts a server (lib/test/over-http.ts).
import { ensureBuilt } from "./server";

export default async function setup(): Promise<void> {
  await ensureBuilt();
}
