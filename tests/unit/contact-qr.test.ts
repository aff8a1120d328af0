import { describe, expect, it } from "vitest";
import { parseContactQr } from "~/modules/leads/capture/contact-qr";
import { CAPTURE_NOTE_MAX_LENGTH } from "~/modules/leads/capture/capture-form";

describe("reading a scanned contact QR code", () => {
  it("reads a vCard 3.0: its formatted name, first e-mail, LinkedIn URL and title at organisation", () => {
    const card = [
      "BEGIN:VCARD",
      "VERSION:3.0",
      "N:Lovelace;Ada;;;",
      "FN:Ada Lovelace",
      "ORG:Analytical Engines\\, Ltd.",
      "TITLE:CTO",
      "EMAIL;TYPE=INTERNET,WORK:Ada@Example.com",
      "EMAIL;TYPE=HOME:ada.home@example.com",
      "URL:https://example.com/ada",
      "item1.URL:https://www.linkedin.com/in/ada-lovelace",
      "END:VCARD",
    ].join("\r\n");
    expect(parseContactQr(card)).toEqual({
      kind: "vcard",
      name: "Ada Lovelace",
      email: "ada@example.com",
      linkedinUrl: "https://www.linkedin.com/in/ada-lovelace",
      note: "CTO, Analytical Engines, Ltd.",
    });
  });

  it("reads a vCard 4.0 with folded lines, typed e-mail and a social profile, and falls back to N without FN", () => {
    const card = [
      "BEGIN:VCARD",
      "VERSION:4.0",
      "N:Hopper;Grace;Brewster;;",
      "EMAIL;TYPE=work;PREF=1:grace@",
      " navy.example",
      'X-SOCIALPROFILE;TYPE=linkedin:https://linkedin.com/in/grace-hopper',
      "END:VCARD",
    ].join("\n");
    expect(parseContactQr(card)).toEqual({
      kind: "vcard",
      name: "Grace Brewster Hopper",
      email: "grace@navy.example",
      linkedinUrl: "https://linkedin.com/in/grace-hopper",
      note: "",
    });
  });

  it("reads a MECARD", () => {
    expect(parseContactQr("MECARD:N:Doe,John;TEL:+15550100;EMAIL:john.doe@example.com;URL:https\\://www.linkedin.com/in/johndoe;ORG:Acme;;")).toEqual({
      kind: "mecard",
      name: "John Doe",
      email: "john.doe@example.com",
      linkedinUrl: "https://www.linkedin.com/in/johndoe",
      note: "Acme",
    });
  });

  it("reads a LinkedIn profile URL and a mailto:", () => {
    expect(parseContactQr("https://www.linkedin.com/in/jane-doe-42/")).toEqual({ kind: "linkedin", name: "", email: "", linkedinUrl: "https://www.linkedin.com/in/jane-doe-42/", note: "" });
    expect(parseContactQr("mailto:Jane%2BBooth@Example.com?subject=Hi")).toEqual({ kind: "mailto", name: "", email: "jane+booth@example.com", linkedinUrl: "", note: "" });
  });

  it("fills nothing from a URL to another site, from binary data, or from a broken mailto:", () => {
    const nothing = { kind: "unknown", name: "", email: "", linkedinUrl: "", note: "" };
    expect(parseContactQr("https://evil.example/in/jane?next=https://www.linkedin.com/in/x")).toEqual(nothing);
    expect(parseContactQr("https://linkedin.com.evil.example/in/jane")).toEqual(nothing);
    expect(parseContactQr(String.fromCharCode(0, 159, 146, 150, 255, 1, 2, 3) + "\u0000PK\u0003\u0004")).toEqual(nothing);
    expect(parseContactQr("mailto:%E0%A4%A")).toMatchObject({ kind: "mailto", email: "" });
    // A vCard whose fields are not what they claim: an e-mail that is not one, a "LinkedIn" URL elsewhere.
    expect(parseContactQr("BEGIN:VCARD\nFN:\u0000Eve\u0007\nEMAIL:javascript:alert(1)\nURL:https://evil.example/\nEND:VCARD")).toEqual({
      kind: "vcard",
      name: "Eve",
      email: "",
      linkedinUrl: "",
      note: "",
    });
  });

  it("caps every field of a 5 KB vCard to the form's limits, reading only the start of the text", () => {
    const card = [
      "BEGIN:VCARD",
      "VERSION:3.0",
      `FN:${"Long Name ".repeat(60)}`,
      `EMAIL:${"a".repeat(300)}@example.com`,
      `TITLE:${"Chief ".repeat(100)}`,
      `NOTE:${"x".repeat(5_000)}`,
      "END:VCARD",
    ].join("\r\n");
    expect(card.length).toBeGreaterThan(5_000);
    const parsed = parseContactQr(card);
    expect(parsed.kind).toBe("vcard");
    expect(parsed.name.length).toBeLessThanOrEqual(100);
    expect(parsed.name.startsWith("Long Name Long Name")).toBe(true);
    // Too long to be an address: left empty for the founder to type, not cut into a wrong one.
    expect(parsed.email).toBe("");
    expect(parsed.note.length).toBeLessThanOrEqual(CAPTURE_NOTE_MAX_LENGTH);
    expect(parsed.note).not.toMatch(/[\r\n]/);
  });
});
