// The postgres project's test runner (vitest.config.mts): vitest's own, except that without a
// cluster (PostgreSQL's binaries are missing: lib/test/pg-global-setup.ts said so) every test
// is collected and reported as skipped and no hook runs, as `vitest -t` with a name that
// matches nothing would do (-t itself is for the whole run, not one project).
import { inject, TestRunner, type SerializedConfig } from "vitest";

export default class PostgresRunner extends TestRunner {
  constructor(config: SerializedConfig) {
    super(inject("pg") ? config : { ...config, testNamePattern: /^(?!)/ });
  }
}
