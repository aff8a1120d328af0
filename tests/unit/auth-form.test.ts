import { describe, expect, it } from "vitest";
import { forgotPasswordSchema, resetPasswordSchema, signInSchema, signUpSchema } from "~/modules/auth/auth-form";
import { validate } from "~/modules/forms/validation";

describe("auth form schemas", () => {
  it("accepts a valid sign-up and trims the e-mail and name", () => {
    const result = validate(signUpSchema, { email: "  ada@example.com ", password: "secret1", name: "  Ada " });
    expect(result).toEqual({ ok: true, data: { email: "ada@example.com", password: "secret1", name: "Ada", invitation: "", timeZone: "" } });
  });

  it("makes the name optional", () => {
    const result = validate(signUpSchema, { email: "ada@example.com", password: "secret1" });
    expect(result.ok && result.data.name).toBe("");
  });

  it.each([
    [{ email: "not-an-email", password: "secret1" }, "email", "Invalid email address"],
    [{ email: "", password: "secret1" }, "email", "Invalid email address"],
    [{ email: "ada@example.com", password: "12345" }, "password", "Password must be at least 6 characters"],
    [{ email: "ada@example.com", password: "secret1", name: "x".repeat(10_000) }, "name", "Name must be less than 100 characters"],
    [{ email: `${"a".repeat(250)}@example.com`, password: "secret1" }, "email", "Email must be less than 255 characters"],
  ])("rejects %j on %s with the spec's message", (input, field, message) => {
    const result = validate(signUpSchema, input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.fieldErrors[field]).toBe(message);
  });

  it("applies the same e-mail and password rules to sign-in", () => {
    const result = validate(signInSchema, { email: "nope", password: "123" });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.fieldErrors).toEqual({
        email: "Invalid email address",
        password: "Password must be at least 6 characters",
      });
    }
  });
});

describe("password reset forms", () => {
  it("asks only for the address, with the sign-in form's rule", () => {
    expect(validate(forgotPasswordSchema, { email: " Ada@Example.com " })).toEqual({ ok: true, data: { email: "ada@example.com" } });
    const refused = validate(forgotPasswordSchema, { email: "ada" });
    expect(refused.ok || refused.fieldErrors.email).toBe("Invalid email address");
  });

  it("holds a new password to the spec's rule (at least 6 characters), the same as sign-up", () => {
    const short = validate(resetPasswordSchema, { token: "a".repeat(24), password: "12345" });
    expect(short.ok || short.fieldErrors.password).toBe("Password must be at least 6 characters");
    expect(validate(resetPasswordSchema, { token: "a".repeat(24), password: "123456" })).toEqual({ ok: true, data: { token: "a".repeat(24), password: "123456" } });
    const long = validate(resetPasswordSchema, { token: "t", password: "x".repeat(129) });
    expect(long.ok || long.fieldErrors.password).toBe("Password must be at most 128 characters");
  });
});
