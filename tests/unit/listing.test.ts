import { expect, it } from "vitest";
import { listedWithAnd } from "~/modules/formats/listing";

it("names items as a sentence does", () => {
  expect(listedWithAnd([])).toBe("");
  expect(listedWithAnd(["Harbor"])).toBe("Harbor");
  expect(listedWithAnd(["Harbor", "Lantern"])).toBe("Harbor and Lantern");
  expect(listedWithAnd(["your name", "your tier", "your e-mail address"])).toBe("your name, your tier and your e-mail address");
});
