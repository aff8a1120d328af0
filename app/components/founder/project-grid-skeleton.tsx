import { cardClass } from "~/components/ui/card";

// Kept apart from project-grid.tsx: the root layout shows it while /my-projects loads, and must not pull the
// grid's icons and links into every page's JavaScript.
export const gridClass = "grid gap-4 sm:grid-cols-2 lg:grid-cols-3";

/** Placeholder cards shaped like the real ones, while the list loads. */
export function ProjectGridSkeleton({ count = 3 }: { count?: number }) {
  return (
    <div role="status" aria-live="polite" aria-busy="true">
      <span className="sr-only">Loading projects…</span>
      <ul aria-hidden className={gridClass}>
        {Array.from({ length: count }, (_, i) => (
          <li key={i} className={`${cardClass} flex flex-col p-5`}>
            <div className="flex animate-pulse flex-col motion-reduce:animate-none">
              <div className="flex items-start justify-between gap-3">
                <div className="h-6 w-3/5 rounded-md bg-slate-200" />
                <div className="h-5 w-20 rounded-full bg-slate-100" />
              </div>
              <div className="mt-3 h-3.5 w-full rounded bg-slate-100" />
              <div className="mt-2 h-3.5 w-4/5 rounded bg-slate-100" />
              <div className="mt-4 h-[4.25rem] rounded-xl bg-slate-100" />
              <div className="mt-4 flex gap-2">
                <div className="h-10 flex-1 rounded-lg bg-slate-200" />
                <div className="h-10 flex-1 rounded-lg bg-slate-100" />
                <div className="size-10 rounded-lg bg-slate-100" />
              </div>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
