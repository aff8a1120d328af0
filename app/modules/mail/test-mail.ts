/** What 'Send me a test e-mail' did, as the alerts screen shows it. */
export type TestMailOutcome = "delivered" | "refused" | "unreachable" | "kept";

export type TestMailResult = {
  outcome: TestMailOutcome;
  /** The founder's address the message went to. */
  to: string;
  /** The SMTP server's answer or reply, the reason it could not be reached, or the file the message was kept in. */
  detail: string;
};

/** One sentence for the outcome; the detail is shown beside it as the server (or the disk) said it. */
export function testMailMessage(result: TestMailResult): string {
  switch (result.outcome) {
    case "delivered":
      return `Delivered to the SMTP server for ${result.to}. Check that inbox (and its spam folder) in a minute.`;
    case "refused":
      return `The SMTP server refused the message to ${result.to}.`;
    case "unreachable":
      return `The SMTP server did not answer, so nothing was sent to ${result.to}.`;
    case "kept":
      return `Not sent: without SMTP_URL the message to ${result.to} was kept on disk.`;
  }
}
