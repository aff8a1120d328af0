import { describe, expect, it } from "vitest";
import { validate } from "~/modules/forms/validation";
import { checkVisitorForm, FIELD_ORDER } from "~/modules/contacts/visitor-form-rules";
import { introSchema } from "~/modules/contacts/intro-form";
import { signalSchema } from "~/modules/signals/signal-form";
import { subscribeSchema } from "~/modules/contacts/subscribe-form";

/*
 * The anonymous page checks its forms with `checkVisitorForm` (no zod in the browser, decision 13); the
 * server runs the zod schemas. Both are built from the same limits and messages: for every input here they
 * must give the same message for every field, in the same order.
 */
const schemas = { intro: introSchema, subscribe: subscribeSchema, signal: signalSchema } as const;

/** zod's messages by field, as the forms show them (`roleTags.0` belongs to `roleTags`), in the form's order. */
function serverMessages(intent: keyof typeof schemas, values: Record<string, string | string[]>) {
  const result = validate(schemas[intent], values);
  if (result.ok) return { ok: true };
  const byField: Record<string, string> = {};
  for (const [key, message] of Object.entries(result.fieldErrors)) byField[key.split(".")[0] ?? key] ??= message;
  const fieldErrors: Record<string, string> = {};
  for (const field of [...FIELD_ORDER[intent], "form"]) if (byField[field]) fieldErrors[field] = byField[field];
  return { ok: false, fieldErrors, formError: Object.values(fieldErrors)[0] };
}

const long = (length: number) => "x".repeat(length);
const valid = {
  intro: { name: "Ada", email: "ada@example.com", linkedinUrl: "", note: "Hello", roleTags: ["Angel"] },
  subscribe: { name: "Grace", email: "grace@example.com", consent: "on" },
  signal: { tierId: "tier-1", name: "Linus", email: "linus@example.com", message: "", showName: "on" },
};

const cases: [keyof typeof schemas, Record<string, string | string[]>][] = [
  ["intro", valid.intro],
  ["intro", { ...valid.intro, name: "", email: "", note: "" }],
  ["intro", { ...valid.intro, name: "   ", note: "  " }],
  ["intro", { ...valid.intro, email: "ada-at-example.com" }],
  ["intro", { ...valid.intro, email: `${long(250)}@example.com` }],
  ["intro", { ...valid.intro, email: "two@example.com,three@example.com" }],
  ["intro", { ...valid.intro, name: long(101) }],
  ["intro", { ...valid.intro, name: long(100) }],
  ["intro", { ...valid.intro, linkedinUrl: "javascript:alert(1)" }],
  ["intro", { ...valid.intro, linkedinUrl: "www.linkedin.com/in/ada" }],
  ["intro", { ...valid.intro, linkedinUrl: `https://linkedin.com/${long(2048)}` }],
  ["intro", { ...valid.intro, linkedinUrl: " https://linkedin.com/in/ada " }],
  ["intro", { ...valid.intro, note: long(1001) }],
  ["intro", { ...valid.intro, roleTags: ["Wizard"] }],
  ["intro", { ...valid.intro, roleTags: [] }],
  ["intro", { ...valid.intro, note: "null\u0000byte" }],
  ["subscribe", valid.subscribe],
  ["subscribe", { ...valid.subscribe, consent: "" }],
  ["subscribe", { name: "", email: "nope" }],
  ["subscribe", { ...valid.subscribe, consent: "true" }],
  ["signal", valid.signal],
  ["signal", { ...valid.signal, tierId: "" }],
  ["signal", { ...valid.signal, tierId: long(65) }],
  ["signal", { ...valid.signal, message: long(1001) }],
  ["signal", { ...valid.signal, showName: "" }],
  ["signal", { tierId: "", name: "", email: "", message: long(1001) }],
];

describe("checkVisitorForm", () => {
  it.each(cases)("agrees with the server's %s schema on %j", (intent, values) => {
    expect(checkVisitorForm(intent, values)).toEqual(serverMessages(intent, values));
  });
});

describe("the qualifying question in the browser's check", () => {
  const intro = { name: "Ana", email: "ana@example.com", note: "Hello", roleTags: [] };
  const stage = { prompt: "What stage?", options: ["Seed", "Series A"], required: true };

  it("refuses a required answer left out and an answer not offered, last in the form's order", () => {
    expect(checkVisitorForm("intro", intro, stage)).toEqual({ ok: false, fieldErrors: { answer: "Please answer the question" }, formError: "Please answer the question" });
    expect(checkVisitorForm("signal", { tierId: "t", name: "Ana", email: "ana@example.com", answer: "Growth" }, stage)).toMatchObject({
      ok: false,
      fieldErrors: { answer: "Choose one of the answers" },
    });
    expect(checkVisitorForm("intro", { ...intro, name: "", answer: "" }, stage)).toMatchObject({ formError: "Please fill in all required fields" });
    expect(checkVisitorForm("intro", { ...intro, answer: " Seed " }, stage)).toEqual({ ok: true });
  });

  it("takes an optional free-text answer or none, and bounds it as the server's schema does", () => {
    const free = { prompt: "Who should we meet?", options: [], required: false };
    expect(checkVisitorForm("intro", intro, free)).toEqual({ ok: true });
    const long = { ...intro, answer: "x".repeat(501) };
    expect(checkVisitorForm("intro", long, free)).toMatchObject({ fieldErrors: { answer: "Answer must be less than 500 characters" } });
    expect(validate(introSchema, long)).toMatchObject({ ok: false, fieldErrors: { answer: "Answer must be less than 500 characters" } });
    expect(checkVisitorForm("intro", long, null)).toMatchObject({ fieldErrors: { answer: "Answer must be less than 500 characters" } });
  });
});
