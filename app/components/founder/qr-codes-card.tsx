/** Placeholder: replaced by the founder UI. */
export function QrCodesCard(_props: Record<string, unknown>) {
  return <main className="mx-auto max-w-6xl px-4 py-10">QrCodesCard</main>;
}
