import { describe, expect, it } from "vitest";
import { z } from "zod/mini";
import { DomainError } from "~/modules/errors.server";
import { UNSTORABLE_TEXT_MESSAGE, unstorableTextPaths } from "~/modules/forms/storable-text";
import { JSON_TEXT_TOO_LONG_MESSAGE, JSON_TOO_DEEP_MESSAGE, readJsonBody } from "~/modules/http/api.server";

/**
 * The JSON functions refuse, in one place and before their schema, what can never be valid input.
 * Found by the fuzzer: a body nested 20,000 deep overflowed the stack of the control-character check (500).
 */
const schema = z.object({ projectId: z.string(), contact: z.optional(z.object({ name: z.optional(z.unknown()) })) });
const post = (body: string) => new Request("http://app.test/api/functions/submit-intro", { method: "POST", body, headers: { "content-type": "application/json" } });

async function refusal(body: string): Promise<DomainError> {
  const error = await readJsonBody(post(body), schema).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe("readJsonBody", () => {
  it("reads a good body", async () => {
    expect(await readJsonBody(post('{"projectId":"p1","contact":{"name":"Ada"}}'), schema)).toEqual({ projectId: "p1", contact: { name: "Ada" } });
  });

  it.each([
    ["[".repeat(20_000) + "]".repeat(20_000)],
    ['{"projectId":"p1","contact":{"name":' + "[".repeat(5_000) + "]".repeat(5_000) + "}}"],
  ])("refuses deep nesting with a 400 and its reason, not a stack overflow (%#)", async (body) => {
    const error = await refusal(body);
    expect(error).toMatchObject({ code: "invalid_input", message: JSON_TOO_DEEP_MESSAGE, status: 400 });
  });

  it("refuses over-long text before the schema, naming the field", async () => {
    const error = await refusal(JSON.stringify({ projectId: "p1", contact: { name: "x".repeat(40_000) } }));
    expect(error).toMatchObject({ code: "invalid_input", message: JSON_TEXT_TOO_LONG_MESSAGE, fieldErrors: { contact: JSON_TEXT_TOO_LONG_MESSAGE } });
  });

  it.each(["Ada\u0000", "Ada\u001b[31m", "lone \ud800"])("refuses %j anywhere with the forms' message", async (name) => {
    const error = await refusal(JSON.stringify({ projectId: "p1", contact: { name } }));
    expect(error).toMatchObject({ code: "invalid_input", message: UNSTORABLE_TEXT_MESSAGE, fieldErrors: { contact: UNSTORABLE_TEXT_MESSAGE } });
  });

  it.each(["", "{", "nul", '{"projectId":'])("answers malformed JSON %j as such", async (body) => {
    expect(await refusal(body)).toMatchObject({ code: "invalid_input", message: "Malformed JSON" });
  });
});

describe("unstorableTextPaths on deep values", () => {
  it("walks a value nested 100,000 deep without overflowing the stack", () => {
    let value: unknown = "bad\u0000";
    for (let depth = 0; depth < 100_000; depth += 1) value = [value];
    const paths = unstorableTextPaths(value);
    expect(paths).toHaveLength(1);
    expect(paths[0]).toHaveLength(100_000);
  });
});
