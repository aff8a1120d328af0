import { describe, expect, it } from "vitest";
import { isSingleMailbox } from "~/modules/formats/email-address";
import { digestMail, introAlertMail } from "~/modules/mail/founder-messages.server";
import { escapeHtml } from "~/modules/mail/letter.server";
import { passwordResetMail } from "~/modules/mail/account-messages.server";
import { signalConfirmationMail, welcomeMail } from "~/modules/mail/visitor-messages.server";
import { introSchema } from "~/modules/contacts/intro-form";
import { validate } from "~/modules/forms/validation";

const UNSUBSCRIBE = { pageUrl: "https://pitch.example/unsubscribe?token=abc", oneClickUrl: "https://pitch.example/unsubscribe/one-click?token=abc" };

describe("e-mail messages", () => {
  it("escape what visitors typed in the HTML and keep it verbatim in the text", () => {
    const mail = introAlertMail({
      to: "founder@example.com",
      projectTitle: "Harbor <Cold> Chain",
      visitorName: `Eve "<script>alert(1)</script>"`,
      visitorEmail: "eve@example.com",
      roleTags: ["Angel"],
      linkedinUrl: null,
      eventSource: null,
      blurb: "Intro: Eve → Harbor\n\n<b>hi</b>",
      leadUrl: "https://pitch.example/project/p/leads?lead=l1",
    });
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).toContain("&lt;script&gt;");
    expect(mail.html).toContain("&lt;b&gt;hi&lt;/b&gt;");
    expect(mail.text).toContain(`Eve "<script>alert(1)</script>"`);
    expect(mail.text).toContain("> <b>hi</b>");
    expect(mail.headers).toEqual({ "Reply-To": "eve@example.com" });
    expect(escapeHtml(`a&b<'">`)).toBe("a&amp;b&lt;&#39;&quot;&gt;");
  });

  it("give a password reset its one link, how long and how often it works, and nothing else", () => {
    const resetUrl = "https://pitch.example/auth/reset-password?token=AbC123dEf456GhI789jKl012";
    const mail = passwordResetMail({ to: "ada@example.com", name: `Ada <b>"L"</b>`, resetUrl, expiresInMinutes: 60 });
    expect(mail).toMatchObject({ kind: "password-reset", to: "ada@example.com", subject: "Reset your PitchQR password" });
    expect(mail.text).toContain(`Choose a new password: ${resetUrl}`);
    expect(mail.text).toContain("The link works once, for 60 minutes. Setting a new password signs your account out on every device.");
    expect(mail.text).toContain("If you did not ask for this, ignore this e-mail");
    expect(mail.html).toContain(`href="${escapeHtml(resetUrl)}"`);
    expect(mail.html).toContain("Ada &lt;b&gt;&quot;L&quot;&lt;/b&gt;");
    expect(mail.html).not.toContain("<b>");
    // No tracking and no other link: the reset link is the only address in it.
    expect(mail.text.match(/https?:\/\//g)).toHaveLength(1);
    expect(mail.headers).toBeUndefined();
    expect(passwordResetMail({ to: "ada@example.com", name: "", resetUrl, expiresInMinutes: 60 }).text).toContain("Hi,\n");
  });

  it("say that a signal is non-binding and carry one-click unsubscribe headers", () => {
    const mail = signalConfirmationMail({
      to: "omar@example.com",
      name: "Omar",
      projectTitle: "Harbor Cold Chain",
      rangeLabel: "Angel",
      rangeMin: 5000,
      rangeMax: 25000,
      message: null,
      showName: true,
      messagePublic: false,
      pitchUrl: "https://pitch.example/pitch/harbor",
      unsubscribe: UNSUBSCRIBE,
    });
    expect(mail.subject).toBe("Your interest in Harbor Cold Chain is recorded");
    expect(mail.text).toContain("On the Recognition Wall: your name, 'Omar', as a supporter, with your tier, 'Angel'.");
    expect(mail.text).toContain("Not on the wall: your e-mail address.");
    expect(mail.text).toContain("Interest level: Angel ($5k-$25k)");
    expect(mail.text).toContain("This signal is non-binding");
    expect(mail.text).toContain(`Unsubscribe: ${UNSUBSCRIBE.pageUrl}`);
    expect(mail.headers).toEqual({ "List-Unsubscribe": `<${UNSUBSCRIBE.oneClickUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });
  });

  it("say exactly what of a signal is on the Recognition Wall and what is not", () => {
    const base = {
      to: "omar@example.com",
      name: "Omar",
      projectTitle: "Harbor",
      rangeLabel: "Angel",
      rangeMin: 5000,
      rangeMax: 25000,
      message: "Loved the pilot",
      pitchUrl: "u",
      unsubscribe: UNSUBSCRIBE,
    };
    const everything = signalConfirmationMail({ ...base, showName: true, messagePublic: true }).text;
    expect(everything).toContain("On the Recognition Wall: your name, 'Omar', as a supporter, with your tier, 'Angel', and your message.");
    expect(everything).toContain("Not on the wall: your e-mail address.");
    const nameOnly = signalConfirmationMail({ ...base, showName: true, messagePublic: false }).text;
    expect(nameOnly).toContain("On the Recognition Wall: your name, 'Omar', as a supporter, with your tier, 'Angel'.");
    expect(nameOnly).toContain("Not on the wall: your message (only the founders read it) and your e-mail address.");
    const nothing = signalConfirmationMail({ ...base, showName: false, messagePublic: false }).text;
    expect(nothing).toContain("On the Recognition Wall: nothing; your signal is only counted, as one more supporter.");
    expect(nothing).toContain("Not on the wall: your name, your tier, your message (only the founders read it) and your e-mail address.");
  });

  it("list a digest's updates oldest first with their dates in the digest's time zone", () => {
    const mail = digestMail({
      to: "grace@example.com",
      name: "Grace",
      projectTitle: "Harbor",
      updates: [
        { body: "Shipped alerts", createdAt: "2026-11-17T23:30:00Z" },
        { body: "Two more clinics", createdAt: "2026-11-19T10:00:00Z" },
      ],
      pitchUrl: "https://pitch.example/pitch/harbor",
      unsubscribe: UNSUBSCRIBE,
      timeZone: "Europe/Berlin",
    });
    expect(mail.text).toContain("2 updates from Harbor since the last digest");
    expect(mail.text).toContain("- Nov 18: Shipped alerts\n- Nov 19: Two more clinics");
    expect(welcomeMail({ to: "g@example.com", name: "G", projectTitle: "Harbor", pitchUrl: "u", unsubscribe: UNSUBSCRIBE }).headers?.["List-Unsubscribe"]).toBe(
      `<${UNSUBSCRIBE.oneClickUrl}>`,
    );
  });

  it("accept one plain address only, in the forms and in the outbox", () => {
    for (const address of ["ada@example.com", "a.b+tag@sub.example.co"]) expect(isSingleMailbox(address)).toBe(true);
    for (const address of ["x,victim@evil.example", "Eve <eve@example.com>", "a@b.com;c@d.com", 'a"b@example.com', "a@b", "a b@example.com"]) {
      expect(isSingleMailbox(address)).toBe(false);
    }
    const result = validate(introSchema, { name: "Eve", email: "x,victim@evil.example", note: "hi" });
    expect(result.ok ? null : result.fieldErrors.email).toBe("Please enter a valid email address");
  });
});
