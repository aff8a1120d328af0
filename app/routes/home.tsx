import { BarChart3, MousePointerClick, Timer } from "lucide-react";
import { Link, useRouteLoaderData } from "react-router";
import { useOperatorSettings } from "~/components/use-operator-settings";
import { authPathFor } from "~/modules/auth/return-to";
import { PRODUCT_NAME } from "~/product";
import type { loader as rootLoader } from "~/root";
import type { Route } from "./+types/home";

export const meta: Route.MetaFunction = () => [
  { title: `${PRODUCT_NAME}: turn every scan into a meeting` },
  { name: "description", content: "A mobile-first pitch page and one trackable QR code per event. Collect intros, subscribers and signals of interest." },
];

const features = [
  {
    icon: Timer,
    title: "60-Second Setup",
    text: "Title, one-liner, a few metrics: your pitch page is live at its own link, ready to print as a QR code.",
  },
  {
    icon: MousePointerClick,
    title: "4 Clear CTAs",
    text: "Request Intro, Follow Updates, Signal Interest and Book Meeting: one tap each, built for a phone at a busy booth.",
  },
  {
    icon: BarChart3,
    title: "Live Dashboard",
    text: "See scans per event, intros and signals arrive as they happen, and export your contacts in one click.",
  },
];

/** A new founder's first click: signed out, the Sign Up tab (and My Projects after signing in); signed in, My Projects. */
const SIGN_UP_FIRST = `${authPathFor("/my-projects")}&mode=signup`;

export default function Home() {
  const { supportEmail } = useOperatorSettings();
  const signedIn = !!useRouteLoaderData<typeof rootLoader>("root")?.user;
  return (
    <>
      <main className="mx-auto max-w-6xl px-4 pb-28 pt-12 sm:pt-20">
        <section className="mx-auto max-w-3xl text-center">
          <p className="text-sm font-semibold uppercase tracking-wide text-brand-600">QR-first pitch pages for founders</p>
          <h1 className="mt-3 text-4xl font-extrabold tracking-tight text-slate-900 sm:text-6xl">Turn scans into meetings</h1>
          <p className="mt-5 text-lg text-slate-600">
            Print one QR code per event. Every scan opens a fast, mobile-first pitch page where investors and partners request an
            intro, follow your updates or signal interest, and you watch it all live.
          </p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            <Link
              to={signedIn ? "/my-projects" : SIGN_UP_FIRST}
              className="rounded-lg bg-brand-600 px-6 py-3 text-base font-semibold text-white shadow-sm hover:bg-brand-700"
            >
              Get Started
            </Link>
            <Link
              to="/pitch/demo-project"
              className="rounded-lg border border-slate-300 bg-white px-6 py-3 text-base font-semibold text-slate-800 shadow-sm hover:bg-slate-50"
            >
              View Demo
            </Link>
          </div>
        </section>
        <section aria-label="Features" className="mt-16 grid gap-4 sm:grid-cols-3">
          {features.map(({ icon: Icon, title, text }) => (
            <article key={title} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
              <Icon aria-hidden className="size-8 text-brand-600" />
              <h2 className="mt-4 text-lg font-semibold">{title}</h2>
              <p className="mt-2 text-sm leading-relaxed text-slate-600">{text}</p>
            </article>
          ))}
        </section>
      </main>
      <footer className="fixed inset-x-0 bottom-0 z-30 border-t border-slate-200 bg-white/95 backdrop-blur">
        <nav aria-label="Legal" className="mx-auto flex h-12 max-w-6xl items-center justify-center gap-6 px-4 text-sm text-slate-600">
          <Link to="/privacy" className="hover:text-slate-900">
            Privacy
          </Link>
          <Link to="/terms" className="hover:text-slate-900">
            Terms
          </Link>
          <a href={`mailto:${supportEmail}`} className="hover:text-slate-900">
            Contact
          </a>
        </nav>
      </footer>
    </>
  );
}
