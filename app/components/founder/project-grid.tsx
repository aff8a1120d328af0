/** Placeholder: replaced by the founder UI. */
export function ProjectGrid(_props: { projects: unknown[] }) {
  return <main className="mx-auto max-w-6xl px-4 py-10">ProjectGrid</main>;
}
