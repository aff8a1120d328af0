/** A signed-in page whose full screen arrives with a later issue; it already enforces sign-in. */
export function PagePlaceholder({ title, children }: { title: string; children?: React.ReactNode }) {
  return (
    <main className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
      <div className="mt-4 text-slate-600">{children}</div>
    </main>
  );
}
