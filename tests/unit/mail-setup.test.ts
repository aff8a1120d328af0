import { describe, expect, it } from "vitest";
import { isLocalSender, mailSetupWarning } from "~/modules/mail/mail-setup";

describe("the warning that mail reaches nobody", () => {
  it("without SMTP_URL says mail is kept on disk, where, and how to set SMTP_URL and MAIL_FROM", () => {
    const warning = mailSetupWarning({ smtpUrl: undefined, mailFrom: "PitchQR <no-reply@localhost>", mailFolder: "data/mail" });
    expect(warning?.problem).toBe("kept-on-disk");
    expect(warning?.title).toBe("E-mail is not sent");
    expect(warning?.message).toContain("Mail is kept as .eml files in data/mail/");
    expect(warning?.message).toContain("set SMTP_URL");
    expect(warning?.message).toContain("MAIL_FROM");
  });

  it("with SMTP_URL but a sender at localhost names the sender and MAIL_FROM, never the SMTP address", () => {
    const warning = mailSetupWarning({ smtpUrl: "smtp://user:s3cret@mail.example.com:587", mailFrom: "PitchQR <no-reply@localhost>", mailFolder: "data/mail" });
    expect(warning?.problem).toBe("localhost-sender");
    expect(warning?.message).toContain("no-reply@localhost");
    expect(warning?.message).toContain("Set MAIL_FROM");
    expect(warning?.message).not.toMatch(/s3cret|mail\.example\.com/);
  });

  it("says nothing when mail goes to an SMTP server from a real sender", () => {
    expect(mailSetupWarning({ smtpUrl: "smtp://mail.example.com:587", mailFrom: "Pitch <pitch@example.com>", mailFolder: "data/mail" })).toBeNull();
    expect(mailSetupWarning({ smtpUrl: "smtp://mail.example.com:587", mailFrom: "pitch@example.com", mailFolder: "data/mail" })).toBeNull();
  });

  it.each(["a@localhost", "A <a@LOCALHOST>", "a@app.localhost", "a@myhost", "a@127.0.0.1", "no address"])("treats %s as a local sender", (from) => {
    expect(isLocalSender(from)).toBe(true);
  });
});

describe("the warning that mail waits for a refused SMTP login", () => {
  it("says since when, that nothing is lost, and what to check, without the SMTP address", () => {
    const warning = mailSetupWarning({
      smtpUrl: "smtp://user:s3cret@mail.example.com:587",
      mailFrom: "Pitch <pitch@example.com>",
      mailFolder: "data/mail",
      loginRefusedSince: new Date("2026-11-26T08:15:00Z"),
    });
    expect(warning?.problem).toBe("login-refused");
    expect(warning?.title).toBe("E-mail is on hold");
    expect(warning?.message).toContain("since 2026-11-26 08:15 UTC");
    expect(warning?.message).toContain("No message is lost");
    expect(warning?.message).toContain("SMTP_URL");
    expect(warning?.message).not.toMatch(/s3cret|mail\.example\.com/);
  });
});
