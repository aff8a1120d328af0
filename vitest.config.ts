import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = { "~": path.resolve(import.meta.dirname, "app") };
// Suites that drive a browser or several server processes wait for what a user would see; on a loaded two-core
// machine a page can take longer than expect.poll's default second to show it. The assertions are unchanged.
const waitForPages = { poll: { timeout: 10_000 } };
// One worker per core. Vitest's own default leaves a core free (one worker on two cores), but the unit and
// integration files wait on their databases as much as they compute: two workers take the integration suite
// from 112 s to 62 s here. The browser suites are CPU-bound (Chromium and the app take turns on the cores, 15 %
// idle): a third worker on two cores made every file slower and the whole no faster.
const workers = os.availableParallelism();
// Each worker keeps its imported modules from one test file to the next (`isolate: false`): re-importing the app's
// modules, zod, Kysely and Playwright for every file was two thirds of the unit suite's time and 47 s of the integration
// suite's 163 s. Test files share no state through modules: none mocks a module, fakes timers or sets process.env,
// and fixtures are made per test (decision 69).
const isolate = false;

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: { name: "unit", include: ["tests/unit/**/*.test.{ts,tsx}"], environment: "node", maxWorkers: workers, isolate },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          globalSetup: ["tests/support/postgres-global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // One worker more than cores fills them while the others wait on PostgreSQL: 71 → 64 s here on two cores
          // (idle 27 % → 12 %); two more gained nothing.
          maxWorkers: workers + 1,
          isolate,
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
          maxWorkers: workers,
          isolate,
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
          // Several app instances each: one file at a time keeps the machine's load light.
          maxWorkers: 1,
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
          maxWorkers: workers,
          isolate,
        },
      },
    ],
  },
});
