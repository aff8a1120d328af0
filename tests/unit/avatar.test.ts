import { describe, expect, it } from "vitest";
import { avatarLetter } from "~/components/ui/avatar";

describe("avatarLetter", () => {
  it("shows the first letter of the e-mail, upper-cased", () => {
    expect(avatarLetter("ada@example.com")).toBe("A");
  });

  it("shows U when there is no e-mail", () => {
    expect(avatarLetter("")).toBe("U");
    expect(avatarLetter(null)).toBe("U");
  });
});
