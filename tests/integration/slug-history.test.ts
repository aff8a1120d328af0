import { describe, expect, it } from "vitest";
import { loadPitchPage, readPublishedPitchSummary } from "~/modules/pitch/pitch-page.server";
import { currentSlugOf } from "~/modules/pitch/moved-pitch.server";
import { createProject, getEditableProject, updateProject } from "~/modules/projects/founder-projects.server";
import { DEFAULT_TIERS, projectFormSchema, SLUG_TAKEN_MESSAGE, type ProjectFormInput } from "~/modules/projects/project-form";
import { findViewableProjectRefBySlug } from "~/modules/projects/projects.server";
import { formerSlugsOf } from "~/modules/projects/slug-history.server";
import { describeEachDialect } from "../support/databases";
import { createProject as createFixtureProject, createUser } from "../support/fixtures";

const TAKEN = { code: "conflict", message: SLUG_TAKEN_MESSAGE, fieldErrors: { slug: SLUG_TAKEN_MESSAGE } };

function input(slug: string, overrides: Partial<ProjectFormInput> = {}): ProjectFormInput {
  const result = projectFormSchema.safeParse({
    title: "Harbor",
    slug,
    oneLiner: "Cold chain",
    summary: "",
    videoUrl: "",
    deckUrl: "",
    calendlyUrl: "",
    status: "published",
    metrics: [],
    problemPoints: [],
    solutionPoints: [],
    tiers: DEFAULT_TIERS,
    ...overrides,
  });
  if (!result.success) throw new Error("fixture invalid");
  return result.data;
}

const unique = (name: string) => `${name}-${crypto.randomUUID().slice(0, 8)}`;

describeEachDialect("slug history", (get) => {
  it("a former slug keeps leading to the project, to its current slug, for the page, its forms and its manifest", async () => {
    const { db } = get();
    const ownerId = await createUser(db);
    const [first, second] = [unique("harbor"), unique("harbor-cold")];
    const project = await createProject(db, ownerId, input(first));
    await updateProject(db, ownerId, project.id, input(second));

    expect(await loadPitchPage(db, first, null)).toBeNull();
    expect(await currentSlugOf(db, first, null)).toBe(second);
    expect(await currentSlugOf(db, second, null)).toBeNull();
    expect(await findViewableProjectRefBySlug(db, first, null)).toEqual({ id: project.id, slug: second });
    expect(await readPublishedPitchSummary(db, first)).toMatchObject({ slug: second });
    expect(await formerSlugsOf(db, project.id, second)).toEqual([first]);
  });

  it("another project can take neither a current nor a former slug, on create or on rename, and nothing changes", async () => {
    const { db } = get();
    const ownerId = await createUser(db);
    const [old, current] = [unique("orbit"), unique("orbit-labs")];
    const project = await createProject(db, ownerId, input(old));
    await updateProject(db, ownerId, project.id, input(current));

    const someoneElse = await createUser(db);
    await expect(createProject(db, someoneElse, input(old))).rejects.toMatchObject(TAKEN);
    await expect(createProject(db, someoneElse, input(current))).rejects.toMatchObject(TAKEN);
    const other = await createProject(db, ownerId, input(unique("other")));
    await expect(updateProject(db, ownerId, other.id, input(old))).rejects.toMatchObject(TAKEN);

    expect((await getEditableProject(db, ownerId, other.id)).slug).not.toBe(old);
    expect(await currentSlugOf(db, old, null)).toBe(current);
  });

  it("the project takes a former slug back: it is current again, the other one redirects to it, no loop", async () => {
    const { db } = get();
    const ownerId = await createUser(db);
    const [a, b] = [unique("alpha"), unique("beta")];
    const project = await createProject(db, ownerId, input(a));
    await updateProject(db, ownerId, project.id, input(b));
    await updateProject(db, ownerId, project.id, input(a));

    expect((await getEditableProject(db, ownerId, project.id)).slug).toBe(a);
    expect(await loadPitchPage(db, a, null)).toMatchObject({ project: { slug: a } });
    expect(await currentSlugOf(db, a, null)).toBeNull();
    expect(await currentSlugOf(db, b, null)).toBe(a);
    expect(await formerSlugsOf(db, project.id, a)).toEqual([b]);
    // And once more the other way: still one hop to the current slug.
    await updateProject(db, ownerId, project.id, input(b));
    expect(await currentSlugOf(db, a, null)).toBe(b);
    expect(await currentSlugOf(db, b, null)).toBeNull();
  });

  it("a project made before slugs were kept remembers its slug when renamed", async () => {
    const { db } = get();
    const fixture = await createFixtureProject(db);
    const next = unique("renamed");
    await updateProject(db, fixture.ownerId, fixture.id, input(next));
    expect(await currentSlugOf(db, fixture.slug, null)).toBe(next);
  });

  it("a draft's former slug leads only its owner on", async () => {
    const { db } = get();
    const ownerId = await createUser(db);
    const [old, current] = [unique("stealth"), unique("stealth-mode")];
    const project = await createProject(db, ownerId, input(old, { status: "draft" }));
    await updateProject(db, ownerId, project.id, input(current, { status: "draft" }));
    expect(await currentSlugOf(db, old, null)).toBeNull();
    expect(await currentSlugOf(db, old, ownerId)).toBe(current);
    expect(await findViewableProjectRefBySlug(db, old, null)).toBeNull();
    expect(await readPublishedPitchSummary(db, old)).toBeNull();
  });

  it("two projects racing for one slug: one gets it, the other is told it is taken", async () => {
    const { db } = get();
    const ownerId = await createUser(db);
    const slug = unique("race");
    const results = await Promise.allSettled([createProject(db, ownerId, input(slug)), createProject(db, ownerId, input(slug))]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    expect(results.find((result) => result.status === "rejected")).toMatchObject({ reason: TAKEN });
  });
});

describe("slug history shape", () => {
  it("the slug form's message is the spec's", () => {
    expect(SLUG_TAKEN_MESSAGE).toBe("This URL slug is already taken. Choose another one.");
  });
});
