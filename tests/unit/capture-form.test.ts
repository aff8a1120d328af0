// The capture form's rule and the name a LinkedIn URL suggests (decision 92).
import { describe, expect, it } from "vitest";
import { validate } from "~/modules/forms/validation";
import { CAPTURE_ONE_WAY_MESSAGE, CAPTURE_PHONE_MESSAGE, captureSchema, linkedInHandle, nameFromLinkedIn, phoneDigits } from "~/modules/leads/capture/capture-form";

const checked = (fields: Record<string, unknown>) => validate(captureSchema, { key: crypto.randomUUID(), codeId: "plain", ...fields });

describe("the capture form's rule", () => {
  it("saves a name with any one of e-mail, LinkedIn URL or phone, and refuses a name alone saying so", () => {
    expect(checked({ name: "Jane Doe", linkedinUrl: "https://www.linkedin.com/in/jane-doe-1234" })).toMatchObject({ ok: true, data: { email: null, phone: null } });
    expect(checked({ name: "Jane Doe", phone: " +49 151 1234 5678 " })).toMatchObject({ ok: true, data: { email: null, phone: "+49 151 1234 5678", linkedinUrl: null } });
    expect(checked({ name: "Jane Doe", email: "Jane@Example.com" })).toMatchObject({ ok: true, data: { email: "jane@example.com" } });
    expect(checked({ name: "Jane Doe", email: "", phone: "", linkedinUrl: "" })).toMatchObject({ ok: false, fieldErrors: { email: CAPTURE_ONE_WAY_MESSAGE }, formError: CAPTURE_ONE_WAY_MESSAGE });
    expect(CAPTURE_ONE_WAY_MESSAGE).toBe("Add their e-mail, LinkedIn URL or phone: a name and one of these saves a person");
    // The name is still required, and a phone must be one.
    expect(checked({ name: "", linkedinUrl: "https://www.linkedin.com/in/jane-doe" })).toMatchObject({ ok: false, fieldErrors: { name: "Please fill in all required fields" } });
    expect(checked({ name: "Jane", phone: "call me" })).toMatchObject({ ok: false, fieldErrors: { phone: CAPTURE_PHONE_MESSAGE } });
    expect(checked({ name: "Jane", phone: "12345" })).toMatchObject({ ok: false, fieldErrors: { phone: CAPTURE_PHONE_MESSAGE } });
  });

  it("suggests a name from a LinkedIn profile's slug", () => {
    expect(nameFromLinkedIn("https://www.linkedin.com/in/jane-doe-1234")).toBe("Jane Doe");
    expect(nameFromLinkedIn("https://linkedin.com/in/kenji-watanabe-3b2a91a7/?trk=x")).toBe("Kenji Watanabe");
    expect(nameFromLinkedIn("https://www.linkedin.com/in/ana")).toBe("Ana");
    expect(nameFromLinkedIn("https://www.linkedin.com/company/acme")).toBeNull();
    expect(nameFromLinkedIn("https://example.com/in/jane-doe")).toBeNull();
  });

  it("reads the same profile from any form of its URL, and a phone's digits", () => {
    for (const url of ["https://www.linkedin.com/in/Jane-Doe-1234/", "http://linkedin.com/in/jane-doe-1234?trk=x", "https://de.linkedin.com/in/jane-doe-1234/details/"]) {
      expect(linkedInHandle(url)).toBe("in/jane-doe-1234");
    }
    expect(phoneDigits("+44 (7700) 900-123")).toBe("447700900123");
    expect(phoneDigits("call me")).toBeNull();
  });
});
