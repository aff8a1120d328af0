import { describe, expect, it } from "vitest";
import { readFormFields } from "~/modules/forms/validation";

describe("readFormFields", () => {
  it("keeps scalar fields (the last value wins) and list fields in order", () => {
    const form = new FormData();
    form.append("name", "Ada");
    form.append("roleTags", "Angel");
    form.append("roleTags", "PM");
    form.append("name", "Ada L.");
    expect(readFormFields(form, { roleTags: 7 })).toEqual({ name: "Ada L.", roleTags: ["Angel", "PM"] });
  });

  it("gives an absent list field as an empty list", () => {
    expect(readFormFields(new FormData(), { roleTags: 7 })).toEqual({ roleTags: [] });
  });

  it("keeps one value past a list's limit, however many are sent, so the schema refuses the list", () => {
    const form = new FormData();
    for (let index = 0; index < 100_000; index += 1) form.append("roleTags", "Angel");
    const fields = readFormFields(form, { roleTags: 7 });
    expect(fields.roleTags).toHaveLength(8);
  });
});
