import { Link } from "react-router";
import { MailLink, StaticPage } from "~/components/static-page";
import { useOperatorSettings } from "~/components/use-operator-settings";
import { formatEffectiveDate } from "~/modules/operator/operator-settings";
import { PRIVACY_EMAIL, PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/privacy";

export const meta: Route.MetaFunction = () => [{ title: `Privacy Policy · ${PRODUCT_NAME}` }];

export default function Privacy() {
  const operator = useOperatorSettings();
  return (
    <StaticPage title="Privacy Policy" effectiveDate={formatEffectiveDate(operator.privacyEffectiveDate)}>
      <p>
        {PRODUCT_NAME} helps founders publish pitch pages and share them through QR codes. This policy explains
        what we collect, why, and the choices you have. We collect as little as we can to run the service.
      </p>

      <h2>What we collect</h2>
      <p>
        <strong>Founders (Creators).</strong> When you create an account we store your e-mail address and name,
        plus the pitch pages and QR codes you create. While you are signed in, your session record keeps your IP
        address and browser type so we can keep the account secure.
      </p>
      <p>
        <strong>Visitors (Backers).</strong> You do not need an account. We only store what you type into a
        pitch page's intro request, update subscription or interest signal forms:
      </p>
      <ul>
        <li>your name and e-mail address;</li>
        <li>an optional LinkedIn profile URL;</li>
        <li>an optional note or message to the founder;</li>
        <li>the role tags you select (for example, Angel or Operator);</li>
        <li>for a non-binding interest signal, the range you indicate and whether you agree to be shown publicly.</li>
      </ul>
      <p>
        When a QR code or pitch link is opened we also keep an anonymous scan record: a one-way hash of basic
        browser characteristics (a fingerprint hash, not your name or IP address), the time of the scan, and which
        QR code was used. Founders see these as aggregate counts per event.
      </p>

      <h2>How we use it</h2>
      <ul>
        <li>
          Anything you submit on a pitch page is shared with the founder of that project, so they can reply to
          you. It is not shared with other founders.
        </li>
        <li>We send project update e-mails only if you subscribed to them.</li>
        <li>
          Every e-mail we send has a one-click unsubscribe link. You can also unsubscribe at any time on our{" "}
          <Link to="/unsubscribe">unsubscribe page</Link>.
        </li>
        <li>Founders' account details are used to sign in, run the service and send account notices.</li>
      </ul>

      <h2>What we don't do</h2>
      <p>
        We do not sell or rent personal data. We do not use third-party trackers, analytics scripts or
        advertising on {PRODUCT_NAME}.
      </p>

      <h2>Cookies</h2>
      <p>
        We use only two cookies: a session cookie that keeps signed-in users signed in, and a short-lived message
        cookie that shows a confirmation after a form is submitted. Neither is used for tracking.
      </p>

      <h2>Retention and deletion</h2>
      <p>
        We keep account data while your account is active and form submissions while the related project
        exists; deleting a project or account removes the related submissions and scan records. To access,
        correct or delete your data, e-mail <MailLink email={PRIVACY_EMAIL} /> and we will act on your request
        promptly.
      </p>

      <h2>Security</h2>
      <p>
        Data is sent over HTTPS, access is limited to the people who need it to run the service, and fingerprints
        are stored only as hashes. No system is perfectly secure, so please contact us if you spot a problem.
      </p>

      <h2>Children</h2>
      <p>
        {PRODUCT_NAME} is not directed to children under 13 and we do not knowingly collect their data. If you
        believe a child has given us personal data, contact us and we will delete it.
      </p>

      <h2>Changes and contact</h2>
      <p>
        If we change this policy we will update the effective date above and, for material changes, notify
        account holders by e-mail. Questions? Write to <MailLink email={PRIVACY_EMAIL} />.
      </p>
    </StaticPage>
  );
}
