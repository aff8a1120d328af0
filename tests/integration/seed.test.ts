import { expect, it } from "vitest";
import { DEMO_SLUG, seedDemoProject } from "~/modules/demo/seed.server";
import { describeEachDialect } from "../support/databases";

describeEachDialect("demo project seeding", (getDb) => {
  it("seeds a published demo project with metrics, points, tiers and wall entries, once", async () => {
    const { db } = getDb();
    // Two instances starting together on a fresh database: exactly one seeds.
    const firstStart = await Promise.all([seedDemoProject(db), seedDemoProject(db)]);
    expect(firstStart.filter(Boolean)).toHaveLength(1);
    expect(await seedDemoProject(db)).toBe(false);

    const projects = await db.selectFrom("projects").selectAll().where("slug", "=", DEMO_SLUG).execute();
    expect(projects).toHaveLength(1);
    const [project] = projects;
    expect(project?.status).toBe("published");
    expect(project?.metrics.length).toBeGreaterThanOrEqual(3);
    expect(project?.problem_points.length).toBeGreaterThan(0);
    expect(project?.solution_points.length).toBeGreaterThan(0);

    const tiers = await db.selectFrom("signal_tiers").selectAll().where("project_id", "=", project!.id).orderBy("sort_order").execute();
    expect(tiers.map((tier) => tier.sort_order)).toEqual([0, 1, 2, 3]);
    expect(tiers.at(-1)?.range_max).toBeNull();

    const wall = await db.selectFrom("recognition_entries").selectAll().where("project_id", "=", project!.id).execute();
    expect(wall.length).toBeGreaterThanOrEqual(3);
    expect(wall.every((entry) => entry.is_public)).toBe(true);
  });
});
