import { TextField } from "~/components/ui/form-fields";
import { visitorEmail, visitorName } from "~/modules/contacts/visitor-fields";
import { HONEYPOT_FIELD } from "~/modules/contacts/visitor-form-rules";
import { maxLengthOf } from "~/modules/forms/constraints";

/** A field people never see or fill; a value means a script filled the form (DESIGN.md, spam). */
export function Honeypot() {
  return (
    <div aria-hidden style={{ position: "absolute", left: "-9999px", top: "auto", width: 1, height: 1, overflow: "hidden" }}>
      <label>
        Website
        <input type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" aria-hidden defaultValue="" />
      </label>
    </div>
  );
}

type ContactForm = { submitted(field: string): string | undefined; fieldError(field: string): string | undefined };

/** Name and e-mail, as all three visitor forms ask for them (SPEC.md section 9 limits: 100 and 255). */
export function NameAndEmailFields({ id, form, autoFocus }: { id: string; form: ContactForm; autoFocus?: boolean }) {
  return (
    <>
      <TextField
        id={`${id}-name`}
        name="name"
        label="Name"
        required
        autoComplete="name"
        maxLength={maxLengthOf(visitorName)}
        defaultValue={form.submitted("name")}
        error={form.fieldError("name")}
        {...(autoFocus ? { "data-autofocus": true } : {})}
      />
      <TextField
        id={`${id}-email`}
        name="email"
        label="Email"
        type="email"
        inputMode="email"
        required
        autoComplete="email"
        maxLength={maxLengthOf(visitorEmail)}
        defaultValue={form.submitted("email")}
        error={form.fieldError("email")}
      />
    </>
  );
}
