import type { ReactNode } from "react";
import { Link } from "react-router";
import { MailLink, StaticPage } from "~/components/static-page";
import { useOperatorSettings } from "~/components/use-operator-settings";
import { FEEDBACK_EMAIL, PARTNERSHIPS_EMAIL, PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/support";

export const meta: Route.MetaFunction = () => [{ title: `Support · ${PRODUCT_NAME}` }];

export default function Support() {
  const operator = useOperatorSettings();
  return (
    <StaticPage title="Support">
      <p>
        Questions about your pitch page, QR codes or an e-mail you received from {PRODUCT_NAME}? We're here to
        help. <strong>We respond within 24-48 hours.</strong>
      </p>

      <ul className="mt-6! grid list-none! gap-3 pl-0! sm:grid-cols-3">
        <ContactCard label="E-mail">
          <MailLink email={operator.supportEmail} />
        </ContactCard>
        <ContactCard label="Hours">{operator.supportHours}</ContactCard>
        <ContactCard label="Location">
          <span className="whitespace-pre-line">{operator.supportAddress}</span>
        </ContactCard>
      </ul>

      <h2>Help topics</h2>

      <h3>Creating a pitch page</h3>
      <p>
        Sign in, open <Link to="/project/create">Create a project</Link>, and fill in your one-liner, problem,
        traction and ask. Pages are designed for phones first, so keep sections short and scannable.
      </p>

      <h3>Printing QR codes per event</h3>
      <p>
        Create one QR code for each event, demo day or meetup and print it on your slides, badge or handouts.
        Every code points to the same pitch page, but scans are counted separately so you know which event
        worked.
      </p>

      <h3>Reading your analytics</h3>
      <p>
        Each project's analytics page shows scans per QR code over time, plus intro requests, update
        subscribers and interest signals. Scans are anonymous; only people who submit a form share their
        details with you.
      </p>

      <h3>Exporting contacts as CSV</h3>
      <p>
        From your project's analytics page, use the CSV export to download everyone who requested an intro,
        subscribed or sent a signal, ready for your CRM or spreadsheet.
      </p>

      <h3>Unsubscribing from updates</h3>
      <p>
        Every update e-mail has a one-click unsubscribe link. You can also enter your e-mail on the{" "}
        <Link to="/unsubscribe">unsubscribe page</Link>.
      </p>

      <h3>Account and sign-in</h3>
      <p>
        Founders <Link to="/auth">sign in</Link> to manage projects; visitors never need an account. If you can't
        get in, e-mail <MailLink email={operator.supportEmail} /> from the address on your account.
      </p>

      <h2>Feedback and partnerships</h2>
      <p>
        Ideas or bug reports: <MailLink email={FEEDBACK_EMAIL} />. Accelerators, event organizers and other
        partners: <MailLink email={PARTNERSHIPS_EMAIL} />.
      </p>
    </StaticPage>
  );
}

function ContactCard({ label, children }: { label: string; children: ReactNode }) {
  return (
    <li className="mt-0! rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <div className="text-xs font-semibold uppercase tracking-wide text-slate-500">{label}</div>
      <div className="mt-1 font-medium text-balance text-slate-900">{children}</div>
    </li>
  );
}
