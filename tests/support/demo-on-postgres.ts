// The hardening suites' usual ground: one built app on a fresh PostgreSQL database (seeded with the demo project
// at start-up), a typed connection to that database to read what was stored, and the demo project's id.
import { beforeAll } from "vitest";
import { projectIdBySlug } from "./test-db";
import { withAppServer, type TestAppServer } from "./with-app-server";

/** A phone browser, as door counting and the venue limits see a visitor. */
export const PHONE_USER_AGENT =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";

export type DemoOnPostgres = {
  server: TestAppServer;
  projectId: string;
};

/** Set up before the suite's tests and dropped after them; the fields are filled in by then. */
export function useDemoOnPostgres(): DemoOnPostgres {
  const demo = { server: withAppServer({ postgres: "pitchqr_hardening" }) } as DemoOnPostgres;
  beforeAll(async () => {
    demo.projectId = await projectIdBySlug(demo.server.db, "demo-project");
  });
  return demo;
}
