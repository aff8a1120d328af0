import { ArrowLeft } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";

/** The account pages' frame (/auth, forgot and reset password): a way home and one card with a heading. */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children: ReactNode }) {
  return (
    <main className="mx-auto max-w-md px-4 py-8">
      <Link to="/" className="inline-flex items-center gap-1 text-sm font-medium text-slate-600 hover:text-slate-900">
        <ArrowLeft aria-hidden className="size-4" /> Back to home
      </Link>
      <div className="mt-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
        <h1 className="text-2xl font-bold">{title}</h1>
        {subtitle ? <p className="mt-1 text-sm text-slate-600">{subtitle}</p> : null}
        {children}
      </div>
    </main>
  );
}

/** A line saying what happened (green) or why there is no form (neutral), inside an account card. */
export function AuthNotice({ tone, children }: { tone: "success" | "info"; children: ReactNode }) {
  const colours = tone === "success" ? "bg-emerald-50 text-emerald-800" : "bg-slate-50 text-slate-700 ring-1 ring-slate-200 ring-inset";
  return (
    <p role="status" className={`mt-4 rounded-md px-3 py-2 text-sm font-medium ${colours}`}>
      {children}
    </p>
  );
}
