import { describe, expect, it } from "vitest";
import { leaseFor } from "~/modules/mail/mail-worker.server";
import { createSmtpTransport, DEFAULT_SMTP_TIMEOUTS, smtpTimeoutsOf } from "~/modules/mail/transport.server";

describe("the mail claim follows the SMTP timeouts (decision 49)", () => {
  it("is 2 min with the default timeouts, and outlasts a send by another send and 10 s", () => {
    const transport = createSmtpTransport("smtp://127.0.0.1:2525", "PitchQR <no-reply@example.com>");
    try {
      expect(transport.maxSendMs).toBe(55_000);
      expect(leaseFor(transport.maxSendMs)).toBe(120_000);
    } finally {
      transport.close();
    }
    expect(leaseFor(4_000)).toBe(18_000);
  });

  it("reads the timeouts an SMTP_URL names (nodemailer's own query names) and the defaults for the rest", () => {
    expect(smtpTimeoutsOf("smtp://user:pass@mail.example.com:587")).toEqual(DEFAULT_SMTP_TIMEOUTS);
    expect(smtpTimeoutsOf("smtp://mail.example.com:587?socketTimeout=5000&pool=false")).toEqual({ ...DEFAULT_SMTP_TIMEOUTS, socketTimeoutMs: 5_000 });
    const transport = createSmtpTransport("smtp://127.0.0.1:2525?connectionTimeout=1000&greetingTimeout=1000&socketTimeout=2000", "PitchQR <no-reply@example.com>");
    try {
      expect(transport.maxSendMs).toBe(4_000);
    } finally {
      transport.close();
    }
  });

  it("refuses a timeout that is not a whole number of milliseconds, naming it", () => {
    for (const value of ["0", "-5", "1.5", "abc", "", "600001"]) {
      expect(() => smtpTimeoutsOf(`smtp://mail.example.com?greetingTimeout=${value}`)).toThrow(
        "SMTP_URL's greetingTimeout must be a whole number of milliseconds from 1 to 600000, such as 15000",
      );
    }
  });
});
