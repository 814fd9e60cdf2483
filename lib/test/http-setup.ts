// The *-http projects' setup file (vitest.config.mts): each suite's `next start` stops with it.
import { afterAll } from "vitest";
import { stopServer } from "./over-http";

afterAll(stopServer);
