import { describe, expect, it } from "vitest";
import { introSchema, type IntroInput } from "~/modules/contacts/intro-form";
import { LIMITS } from "~/modules/forms/visitor-limits";
import { DomainError } from "~/modules/errors.server";
import { constraintsOf } from "~/modules/forms/constraints";
import { emailAddress } from "~/modules/forms/fields";
import { GENERIC_FAILURE_MESSAGE, runFormAction, type FormIntent } from "~/modules/forms/form-action.server";
import { validate } from "~/modules/forms/validation";
import { createLogger } from "~/modules/logging/logger.server";
import { LIMITS as PROJECT_LIMITS, projectFormSchema } from "~/modules/projects/project-form";
import { qrCodeFormSchema } from "~/modules/qr/qr-form";
import { signalSchema } from "~/modules/signals/signal-form";

const logger = createLogger("silent");

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  return data;
}

describe("the field builders", () => {
  it("trim and lowercase an e-mail in the schema, so domain code receives one form of each address", () => {
    const result = validate(introSchema, { name: "Ada", email: "  Ada.Lovelace@Example.COM ", note: "hi" });
    expect(result).toMatchObject({ ok: true, data: { email: "ada.lovelace@example.com" } });
  });

  it("check the address before lowercasing it, with the form's own messages", () => {
    const email = emailAddress({ invalid: "Bad address", tooLong: "Too long", required: "Required" });
    expect(validate(email, "")).toMatchObject({ ok: false, formError: "Required" });
    expect(validate(email, "no-at-sign")).toMatchObject({ ok: false, formError: "Bad address" });
    expect(validate(email, `${"a".repeat(250)}@example.com`)).toMatchObject({ ok: false, formError: "Too long" });
  });
});

describe("constraintsOf", () => {
  it("reads required and maxLength from a schema's fields, through optional and transformed ones", () => {
    expect(constraintsOf(introSchema, "name")).toEqual({ required: true, maxLength: LIMITS.name });
    expect(constraintsOf(introSchema, "email")).toEqual({ required: true, maxLength: LIMITS.email });
    expect(constraintsOf(introSchema, "linkedinUrl")).toEqual({ maxLength: LIMITS.url });
    expect(constraintsOf(signalSchema, "message")).toEqual({ maxLength: LIMITS.message });
    expect(constraintsOf(qrCodeFormSchema, "eventTag")).toEqual({ maxLength: 50 });
  });

  it("reaches into lists of objects with a dotted path", () => {
    expect(constraintsOf(projectFormSchema, "title")).toEqual({ required: true, maxLength: PROJECT_LIMITS.title });
    expect(constraintsOf(projectFormSchema, "metrics.label")).toEqual({ maxLength: 40 });
    expect(constraintsOf(projectFormSchema, "tiers.rangeLabel")).toEqual({ required: true, maxLength: 60 });
  });

  it("names a field the schema does not have", () => {
    expect(() => constraintsOf(introSchema, "nickname")).toThrow("The form schema has no field nickname");
  });
});

describe("runFormAction", () => {
  const save = (run: FormIntent<object, IntroInput>["run"]) => {
    const intent: FormIntent<object, IntroInput> = { schema: introSchema, failureMessage: "Failed to save", echo: () => ({ name: "typed" }), run };
    return { save: intent };
  };

  it("answers the schema's messages with 400 and never calls the domain", async () => {
    let called = false;
    const outcome = await runFormAction({
      form: form({ name: "", email: "ada@example.com", note: "hi" }),
      logger,
      intent: "save",
      intents: save(async () => {
        called = true;
        return { message: "Saved" };
      }),
    });
    expect(called).toBe(false);
    expect(outcome).toEqual({
      kind: "result",
      status: 400,
      headers: undefined,
      result: { intent: "save", ok: false, formError: "Please fill in all required fields", fieldErrors: { name: "Please fill in all required fields" }, values: { name: "typed" } },
    });
  });

  it("answers a DomainError with its status, message and Retry-After", async () => {
    const outcome = await runFormAction({
      form: form({ name: "Ada", email: "ada@example.com", note: "hi" }),
      logger,
      intent: "save",
      intents: save(async () => {
        throw new DomainError("rate_limited", "Too many requests", {}, 30);
      }),
    });
    expect(outcome).toMatchObject({ status: 429, headers: { "Retry-After": "30" }, result: { ok: false, formError: "Too many requests" } });
  });

  it("answers an unexpected error with the intent's failure message and 500, or the generic one", async () => {
    const boom = async (): Promise<never> => {
      throw new Error("database down");
    };
    const outcome = await runFormAction({ form: form({ name: "Ada", email: "a@example.com", note: "n" }), logger, intent: "save", intents: save(boom) });
    expect(outcome).toMatchObject({ status: 500, result: { ok: false, formError: "Failed to save", fieldErrors: {} } });
    const generic = await runFormAction({ form: form({}), logger, intent: "delete", intents: { delete: { run: boom } } });
    expect(generic).toMatchObject({ status: 500, result: { intent: "delete", ok: false, formError: GENERIC_FAILURE_MESSAGE } });
  });

  it("passes the validated input to the domain and answers its message", async () => {
    const outcome = await runFormAction({
      form: form({ name: " Ada ", email: "ADA@example.com", note: "hi" }),
      logger,
      intent: "save",
      intents: save(async (input) => ({ message: `Saved ${input.name}`, id: "42" })),
    });
    expect(outcome).toEqual({ kind: "result", status: 200, result: { intent: "save", ok: true, message: "Saved Ada", id: "42" } });
  });
});
