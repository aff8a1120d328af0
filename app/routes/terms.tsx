import { Link } from "react-router";
import { MailLink, StaticPage } from "~/components/static-page";
import { useOperatorSettings } from "~/components/use-operator-settings";
import { formatEffectiveDate } from "~/modules/operator/operator-settings";
import { LEGAL_EMAIL, PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/terms";

export const meta: Route.MetaFunction = () => [{ title: `Terms of Service · ${PRODUCT_NAME}` }];

export default function Terms() {
  const operator = useOperatorSettings();
  return (
    <StaticPage title="Terms of Service" effectiveDate={formatEffectiveDate(operator.termsEffectiveDate)}>
      <p>
        These terms govern your use of {PRODUCT_NAME}. By using the service you agree to them. Please also read
        our <Link to="/privacy">Privacy Policy</Link>.
      </p>

      <h2>Who uses {PRODUCT_NAME}</h2>
      <ul>
        <li>
          <strong>Creators</strong> are founders who publish pitch pages and print QR codes for events.
        </li>
        <li>
          <strong>Backers</strong> are visitors who scan a code or open a pitch page and respond to it.
        </li>
      </ul>
      <p>
        You must be at least 18 years old to use {PRODUCT_NAME}, or have the consent of a parent or legal
        guardian who agrees to these terms on your behalf.
      </p>

      <h2>No offers, no payments</h2>
      <p>
        {PRODUCT_NAME} is a tool for sharing information and starting conversations. It is not a broker-dealer,
        funding portal or investment adviser.
      </p>
      <ul>
        <li>Signals of interest are non-binding and do not create any obligation for either party.</li>
        <li>No payment is made through the platform.</li>
        <li>No securities are offered or sold on {PRODUCT_NAME}.</li>
        <li>
          Any investment discussion happens off-platform, directly between the parties, who are responsible for
          complying with applicable law.
        </li>
      </ul>

      <h2>Your content</h2>
      <p>
        Creators are responsible for their pitch pages and everything they publish, including its accuracy and
        their right to share it. You keep ownership of your content and give us a license to host and display it
        to run the service. Backers are responsible for what they submit through the forms.
      </p>

      <h2>Acceptable use</h2>
      <p>You agree not to:</p>
      <ul>
        <li>publish false, misleading or unlawful content, or solicit investments in violation of the law;</li>
        <li>infringe anyone's intellectual property or privacy;</li>
        <li>send spam, or use contact details collected through {PRODUCT_NAME} for unrelated purposes;</li>
        <li>interfere with, scrape or attempt to gain unauthorized access to the service.</li>
      </ul>

      <h2>Termination</h2>
      <p>
        You may stop using {PRODUCT_NAME} and delete your account at any time. We may suspend or remove content
        or accounts that violate these terms or put others at risk.
      </p>

      <h2>Disclaimers</h2>
      <p>
        The service is provided "as is" and "as available", without warranties of any kind. We do not verify
        pitch pages or Backers and do not endorse any project or investment.
      </p>

      <h2>Limitation of liability</h2>
      <p>
        To the fullest extent permitted by law, {PRODUCT_NAME} is not liable for indirect, incidental or
        consequential damages, or for any loss arising from dealings between Creators and Backers. Our total
        liability for any claim is limited to the amount you paid us in the twelve months before the claim, or
        US$100, whichever is greater.
      </p>

      <h2>Governing law</h2>
      <p>
        These terms are governed by the laws of the State of California, without regard to its conflict-of-law
        rules.
      </p>

      <h2>Changes and contact</h2>
      <p>
        We may update these terms and will change the effective date above when we do. Continued use means you
        accept the updated terms. Questions? Write to <MailLink email={LEGAL_EMAIL} />.
      </p>
    </StaticPage>
  );
}
