import type { ReactNode } from "react";

type StaticPageProps = {
  title: string;
  effectiveDate?: string;
  children: ReactNode;
};

/** Readable article layout for the static pages (privacy, terms, support). */
export function StaticPage({ title, effectiveDate, children }: StaticPageProps) {
  return (
    <main className="mx-auto max-w-3xl px-4 py-10 pb-24">
      <article>
        <header className="border-b border-slate-200 pb-6">
          <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{title}</h1>
          {effectiveDate ? (
            <p className="mt-2 text-sm text-slate-500">Effective date: {effectiveDate}</p>
          ) : null}
        </header>
        <div
          className={[
            "text-base text-slate-700 break-words",
            "[&_h2]:mt-8 [&_h2]:scroll-mt-20 [&_h2]:text-lg [&_h2]:font-semibold [&_h2]:text-slate-900",
            "[&_h3]:mt-6 [&_h3]:font-semibold [&_h3]:text-slate-900",
            "[&_p]:mt-3 [&_p]:leading-relaxed [&_p]:text-slate-700",
            "[&_ul]:mt-3 [&_ul]:list-disc [&_ul]:pl-6 [&_ol]:mt-3 [&_ol]:list-decimal [&_ol]:pl-6",
            "[&_li]:mt-1 [&_li]:leading-relaxed [&_li::marker]:text-slate-500",
            "[&_a]:font-medium [&_a]:text-brand-600 [&_a]:underline [&_a]:underline-offset-2 [&_a:hover]:text-brand-700",
            "[&_strong]:font-semibold [&_strong]:text-slate-900",
          ].join(" ")}
        >
          {children}
        </div>
      </article>
    </main>
  );
}

/** A `mailto:` link for one of the product's e-mail addresses. */
export function MailLink({ email }: { email: string }) {
  return <a href={`mailto:${email}`}>{email}</a>;
}
