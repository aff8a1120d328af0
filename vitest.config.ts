import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";
import { LongestFirst } from "./tests/support/longest-first.js";

const alias = { "~": path.resolve(import.meta.dirname, "app") };
// Suites that drive a browser or several server processes wait for what a user would see; on a loaded two-core
// machine a page can take longer than expect.poll's default second to show it. The assertions are unchanged.
const waitForPages = { poll: { timeout: 10_000 } };
/**
 * The suites that start the built app share one pool of two workers, one per core of the 2-core machine the suite
 * is sized for (`npm test` runs them in one Vitest run, longest file first): each file starts its own servers and
 * browser, so a third worker only makes every file slower.
 */
const appWorkers = 2;

export default defineConfig({
  resolve: { alias },
  test: {
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        resolve: { alias },
        test: { name: "unit", include: ["tests/unit/**/*.test.{ts,tsx}"], environment: "node" },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          globalSetup: ["tests/support/postgres-global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Vitest's default is one worker fewer than the cores: one on two cores, which leaves a core idle while the
          // worker waits on PostgreSQL.
          maxWorkers: Math.max(2, os.availableParallelism() - 1),
        },
      },
      {
        resolve: { alias },
        test: {
          name: "e2e",
          expect: waitForPages,
          include: ["tests/e2e/**/*.test.ts"],
          globalSetup: ["tests/support/e2e-global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          maxWorkers: appWorkers,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "concurrency",
          expect: waitForPages,
          include: ["tests/concurrency/**/*.test.ts"],
          globalSetup: ["tests/support/build-global-setup.ts", "tests/support/postgres-global-setup.ts"],
          testTimeout: 180_000,
          hookTimeout: 120_000,
          maxWorkers: appWorkers,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "hardening",
          expect: waitForPages,
          include: ["tests/hardening/**/*.test.ts"],
          globalSetup: ["tests/support/e2e-global-setup.ts", "tests/support/postgres-global-setup.ts"],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          maxWorkers: appWorkers,
        },
      },
    ],
  },
});
