/** Placeholder: replaced by the founder UI. */
export function AnalyticsView(_props: { analytics: unknown; now: string }) {
  return <main className="mx-auto max-w-6xl px-4 py-10">AnalyticsView</main>;
}
