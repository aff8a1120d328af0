import type { PitchPage } from "~/modules/pitch/pitch-page.server";
import type { VisitorActionResult } from "~/modules/pitch/visitor-action-result";

/** Placeholder until the full pitch page lands: title and one-liner. */
export function PitchPageView({ page }: { page: PitchPage; actionData?: VisitorActionResult }) {
  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{page.project.title}</h1>
      <p className="mt-3 text-lg text-slate-600">{page.project.oneLiner}</p>
    </main>
  );
}
