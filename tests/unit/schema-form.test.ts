import { describe, expect, it } from "vitest";
import { errorSlot } from "~/components/founder/form/form-errors";
import { FORM_SLOT, messagesBySlot } from "~/components/ui/use-schema-form";
import { resetPasswordSchema, signUpSchema } from "~/modules/auth/auth-form";
import { constraintsOf, fieldNamesOf } from "~/modules/forms/constraints";
import { validate } from "~/modules/forms/validation";
import { leadTriageSchema } from "~/modules/leads/lead-forms";
import { projectFormSchema } from "~/modules/projects/project-form";
import { qrCodeFormSchema } from "~/modules/qr/qr-form";

describe("the form hook's reading of a schema", () => {
  it("takes the field order from the schema as declared", () => {
    expect(fieldNamesOf(qrCodeFormSchema)).toEqual(["label", "eventTag", "eventEndsOn"]);
    expect(fieldNamesOf(leadTriageSchema)).toEqual(["leadId", "status", "note"]);
    expect(fieldNamesOf(projectFormSchema).slice(0, 3)).toEqual(["title", "slug", "oneLiner"]);
  });

  it("takes a minimum length above one as minLength, one as required", () => {
    expect(constraintsOf(resetPasswordSchema, "password")).toEqual({ required: true, minLength: 6, maxLength: 128 });
    expect(constraintsOf(signUpSchema, "name")).toEqual({ maxLength: 100 });
  });
});

describe("messagesBySlot", () => {
  const qr = { order: fieldNamesOf(qrCodeFormSchema) };

  it("lists a refusal's messages in the schema's order, whatever order they arrive in", () => {
    const shown = messagesBySlot({ eventTag: "Event tag must be at most 50 characters", label: "Please enter a label for the QR code" }, "x", qr);
    expect(Object.keys(shown)).toEqual(["label", "eventTag"]);
  });

  it("shows the browser's refusal of an empty form under its fields, not as the form's", () => {
    const checked = validate(qrCodeFormSchema, { label: " ", eventTag: "" });
    if (checked.ok) throw new Error("an empty label must be refused");
    expect(messagesBySlot(checked.fieldErrors, checked.formError, qr)).toEqual({ label: "Please enter a label for the QR code" });
  });

  it("makes a refusal without field messages, or about a hidden or unknown field, the form's message", () => {
    expect(messagesBySlot({}, "Too many requests", qr)).toEqual({ [FORM_SLOT]: "Too many requests" });
    const triage = { order: fieldNamesOf(leadTriageSchema), hidden: ["leadId"] };
    expect(messagesBySlot({ leadId: "Lead not found" }, "Lead not found", triage)).toEqual({ [FORM_SLOT]: "Lead not found" });
    expect(messagesBySlot({ smuggled: "Please remove the invalid characters", note: "Too long" }, "x", triage)).toEqual({
      note: "Too long",
      [FORM_SLOT]: "Please remove the invalid characters",
    });
  });

  it("shows a project list message at the row on screen the server's index stands for", () => {
    // Row 0 was blank and dropped before validation: the server's metrics.0 is the second row on screen.
    const kept = { metrics: [1, 2], problemPoints: [], solutionPoints: [0, 3] };
    const rules = { order: fieldNamesOf(projectFormSchema), slotOf: (path: string) => errorSlot(path, kept) };
    expect(messagesBySlot({ "solutionPoints.1": "Too long", "metrics.0.value": "Too long", "tiers.0.perks.2": "Perk too long" }, "x", rules)).toEqual({
      "metrics.1.value": "Too long",
      "solutionPoints.3": "Too long",
      "tiers.0.perks": "Perk too long",
    });
  });
});
