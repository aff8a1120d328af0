import { describe, expect, it } from "vitest";
import { escapeContentText, foldContentLine } from "~/modules/formats/content-lines";
import { buildVCard, vcardFileName } from "~/modules/leads/capture/vcard";

describe("vCard text", () => {
  it("escapes backslash, comma, semicolon and every kind of line break (RFC 6350 3.4)", () => {
    expect(escapeContentText("a\\b,c;d\ne\r\nf\rg")).toBe("a\\\\b\\,c\\;d\\ne\\nf\\ng");
    expect(escapeContentText("END:VCARD")).toBe("END:VCARD");
  });

  it("turns every Unicode line break into \\n, so none can start a property line of its own", () => {
    for (const lineBreak of ["\r\n", "\r", "\n", "\u000b", "\u000c", "\u0085", "\u2028", "\u2029"]) {
      expect(escapeContentText(`note${lineBreak}END:VCARD`), JSON.stringify(lineBreak)).toBe("note\\nEND:VCARD");
    }
  });

  it("folds at 75 octets with CRLF and a space, never inside a UTF-8 sequence", () => {
    const line = `NOTE:${"é".repeat(60)}${"😀".repeat(20)}`;
    const folded = foldContentLine(line);
    const physical = folded.split("\r\n");
    expect(physical.length).toBeGreaterThan(2);
    for (const part of physical) expect(Buffer.byteLength(part, "utf8")).toBeLessThanOrEqual(75);
    for (const part of physical.slice(1)) expect(part.startsWith(" ")).toBe(true);
    expect(physical.map((part, index) => (index ? part.slice(1) : part)).join("")).toBe(line);
    expect(folded).not.toContain("\uFFFD");
    expect(foldContentLine("FN:short")).toBe("FN:short");
  });

  it("cannot be broken by what a visitor typed", () => {
    const card = buildVCard(
      { name: "Eve\r\nEND:VCARD\r\nBEGIN:VCARD\r\nFN:Mallory", email: "eve@example.com", linkedinUrl: null, event: { kind: "unknown", name: "Not attributed" }, activity: [], note: null, answer: null },
      "Harbor",
    );
    expect(card.match(/^BEGIN:VCARD$/gm)).toHaveLength(1);
    expect(card.match(/^END:VCARD\r?$/gm)).toHaveLength(1);
    expect(card).toContain("FN:Eve\\nEND:VCARD\\nBEGIN:VCARD\\nFN:Mallory");
  });

  it("has no EMAIL for a person met without one, and their phone as TEL, escaped (decision 92)", () => {
    const card = buildVCard(
      { name: "Omar Haddad", email: null, phone: "+44 7700 900123;x", linkedinUrl: null, event: { kind: "direct", name: "Direct link" }, activity: [], note: null, answer: null },
      "Harbor",
    );
    expect(card).not.toContain("EMAIL");
    expect(card).toContain("\r\nTEL;TYPE=CELL:+44 7700 900123\\;x\r\n");
  });

  it("carries the answer to the project's question, as asked, in the note, and an answer cannot break the card either", () => {
    const card = buildVCard(
      {
        name: "Ana Kovač",
        email: "ana@example.com",
        linkedinUrl: null,
        event: { kind: "unknown", name: "Not attributed" },
        activity: [],
        note: null,
        answer: { question: "What stage are you investing in?", answer: "Seed\nEND:VCARD" },
      },
      "Harbor",
    );
    expect(card.match(/^END:VCARD\r?$/gm)).toHaveLength(1);
    expect(card.replace(/\r\n /g, "")).toContain("\\n\\nWhat stage are you investing in? Seed\\nEND:VCARD");
  });

  it("names files after the person, keeping letters of any script", () => {
    expect(vcardFileName("Zoë O'Brien")).toBe("Zoë-O-Brien.vcf");
    expect(vcardFileName("  ")).toBe("lead.vcf");
  });
});
