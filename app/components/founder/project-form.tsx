/** Placeholder: replaced by the founder UI. */
export function ProjectForm(_props: Record<string, unknown> & { children?: React.ReactNode }) {
  return <main className="mx-auto max-w-6xl px-4 py-10">ProjectForm{_props.children}</main>;
}
