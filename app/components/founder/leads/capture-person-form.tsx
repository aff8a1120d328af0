import { ClipboardPaste, UserPlus } from "lucide-react";
import { useState, type FormEvent } from "react";
import { describedBy, fieldControl, FieldError, FormAlert, labelClass, TextField } from "~/components/ui/form-fields";
import { useSchemaForm } from "~/components/ui/use-schema-form";
import { LEAD_TEMPERATURE_LABELS, LEAD_TEMPERATURES } from "~/modules/formats/lead-triage";
import { validate } from "~/modules/forms/validation";
import { CAPTURE_ONE_WAY_MESSAGE, captureSchema, nameFromLinkedIn, type CaptureFields } from "~/modules/leads/capture/capture-form";
import { newCaptureKey } from "~/browser/capture-queue";
import { parseContactQr, type ScannedContact } from "~/modules/leads/capture/contact-qr";
import { CameraButton, CameraView, useCodeScanner } from "./capture-camera";
import type { CaptureCode } from "./capture-sheet";

const EMPTY_FIELDS = { name: "", email: "", phone: "", linkedinUrl: "", temperature: "", note: "" };
type EditableFields = typeof EMPTY_FIELDS;
const WAYS_TO_REACH: readonly (keyof EditableFields)[] = ["email", "linkedinUrl", "phone"];

const SCANNED_KINDS: Record<ScannedContact["kind"], string> = {
  vcard: "contact card",
  mecard: "contact card",
  linkedin: "LinkedIn profile",
  mailto: "e-mail link",
  email: "e-mail address",
  unknown: "",
};

/** Every field id starts with it: `capture-name`, `capture-email`, … */
const FORM_ID = "capture";

/** Larger than the founder forms' inputs: the sheet is filled in standing, with a thumb. */
const inputClass =
  "mt-1 block w-full rounded-xl border border-slate-300 bg-white px-3.5 py-3 text-base text-slate-950 shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30";

/**
 * The sheet's form (decision 62, 92), on the capture schema the server runs too: scan their QR code, paste a LinkedIn
 * URL (its slug suggests the name while the name is empty) or type them in; a name and one of e-mail, LinkedIn or
 * phone save them. A capture is not posted: what the schema accepts is handed to `onSaved`, which keeps it on the
 * device and sends it from there.
 */
export function CaptureForm({ codes, codeId, onSaved }: { codes?: CaptureCode[]; codeId?: string; onSaved: (fields: CaptureFields) => Promise<void> }) {
  const [fields, setFields] = useState<EditableFields>(EMPTY_FIELDS);
  const [where, setWhere] = useState(codeId ?? codes?.[0]?.id ?? "plain");
  const [notice, setNotice] = useState<{ text: string; warning: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  // The name the LinkedIn URL suggested, while the name field still holds it: a later URL may replace it.
  const [suggestedName, setSuggestedName] = useState<string | null>(null);
  const whereShown = Boolean(codes && !codeId);
  const captured = (): CaptureFields => ({ key: newCaptureKey(), codeId: where, ...fields });
  const { form, field, errors, formError, clearErrors } = useSchemaForm(captureSchema, {
    id: FORM_ID,
    busy,
    read: captured,
    // The key, and the code the booth shows, have no field on screen: their messages are the form's.
    hidden: whereShown ? ["key"] : ["key", "codeId"],
  });

  const fill = (scanned: ScannedContact, from: string) => {
    if (scanned.kind === "unknown") {
      setNotice({ text: `That ${from} is not a contact: nothing was filled in. Type their details instead.`, warning: true });
      return;
    }
    const suggested = !scanned.name && !fields.name && scanned.linkedinUrl ? nameFromLinkedIn(scanned.linkedinUrl) : null;
    setFields((current) => ({
      ...current,
      name: scanned.name || current.name || suggested || "",
      email: scanned.email || current.email,
      linkedinUrl: scanned.linkedinUrl || current.linkedinUrl,
      note: current.note || scanned.note,
    }));
    if (suggested) setSuggestedName(suggested);
    clearErrors(() => true);
    const missing = scanned.email ? "" : " No e-mail: they are saved without one, and you add it later to reply.";
    setNotice({ text: `Read from their ${SCANNED_KINDS[scanned.kind]}. Check the details, then save.${missing}`, warning: false });
  };

  const scanner = useCodeScanner({
    onRead: (text) => fill(parseContactQr(text), "QR code"),
    onFailed: () => setNotice({ text: "The camera could not start. Allow the camera, or type their details.", warning: true }),
  });

  const paste = async () => {
    try {
      const text = await navigator.clipboard.readText();
      fill(parseContactQr(text), "pasted text");
    } catch {
      setNotice({ text: "Nothing could be pasted: paste into the LinkedIn field instead.", warning: true });
    }
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    // The schema runs first: a refusal puts its messages under the fields and stops here.
    form.onSubmit(event);
    if (event.defaultPrevented) return;
    event.preventDefault();
    const submitted = captured();
    const checked = validate(captureSchema, submitted);
    if (!checked.ok) return;
    setBusy(true);
    scanner.stop();
    // What the schema made of them (trimmed, the e-mail lowercased) is what is kept and sent.
    const data = checked.data;
    await onSaved({
      ...submitted,
      name: data.name,
      email: data.email ?? "",
      phone: data.phone ?? "",
      linkedinUrl: data.linkedinUrl ?? "",
      temperature: data.temperature ?? "",
      note: data.note ?? "",
    }).finally(() => setBusy(false));
  };

  const set = (name: keyof EditableFields) => (value: string) => {
    // One of e-mail, LinkedIn or phone given: the message asking for one has been answered.
    if (value.trim() && WAYS_TO_REACH.includes(name) && errors.email === CAPTURE_ONE_WAY_MESSAGE) clearErrors((slot) => slot === "email");
    setFields((current) => ({ ...current, [name]: value }));
  };
  const setName = (value: string) => {
    setSuggestedName(null);
    set("name")(value);
  };
  // A profile URL typed or pasted while the name is empty (or still the last suggestion) suggests the name from its slug.
  const setLinkedIn = (value: string) => {
    if (fields.name && fields.name !== suggestedName) return set("linkedinUrl")(value);
    const suggested = nameFromLinkedIn(value);
    setSuggestedName(suggested);
    set("linkedinUrl")(value);
    setFields((current) => ({ ...current, name: suggested ?? "" }));
  };

  const name = field("name");
  const email = field("email");
  const linkedin = field("linkedinUrl");
  const temperature = field("temperature");
  const whereField = field("codeId");
  const ruleId = `${FORM_ID}-rule`;
  const nameSuggested = suggestedName !== null && fields.name === suggestedName;

  return (
    <form {...form} onSubmit={(event) => void submit(event)} className="flex flex-col gap-4">
      {scanner.scanning ? <CameraView videoRef={scanner.videoRef} /> : null}
      {notice ? (
        <p role="status" className={`rounded-xl px-3 py-2 text-sm ${notice.warning ? "bg-amber-50 text-amber-900 ring-1 ring-amber-200" : "bg-emerald-50 text-emerald-900 ring-1 ring-emerald-200"}`}>
          {notice.text}
        </p>
      ) : null}

      <p id={ruleId} className="text-sm text-slate-600">
        Their name, and one of e-mail, LinkedIn or phone. Without an e-mail you add it later to reply.
      </p>
      <TextField
        {...name}
        label="Name"
        requiredMark={false}
        hint={nameSuggested ? "Suggested from their LinkedIn URL: change it if they spell it otherwise" : undefined}
        autoComplete="off"
        value={fields.name}
        onChange={(e) => setName(e.target.value)}
        className={inputClass}
      />
      <TextField
        {...email}
        label="E-mail"
        type="email"
        inputMode="email"
        autoComplete="off"
        value={fields.email}
        onChange={(e) => set("email")(e.target.value)}
        className={inputClass}
        aria-describedby={email.error ? `${email.id}-error` : ruleId}
      />
      <div>
        <label htmlFor={linkedin.id} className={labelClass}>
          LinkedIn
        </label>
        <div className="flex items-stretch gap-2">
          <input
            id={linkedin.id}
            name={linkedin.name}
            maxLength={linkedin.maxLength}
            data-error-slot={linkedin["data-error-slot"]}
            type="url"
            inputMode="url"
            placeholder="https://www.linkedin.com/in/…"
            value={fields.linkedinUrl}
            onChange={(e) => setLinkedIn(e.target.value)}
            onPaste={(event) => {
              // A whole card or an e-mail link pasted here fills the form, as a scan would; a LinkedIn URL pastes as it is.
              const scanned = parseContactQr(event.clipboardData.getData("text"));
              if (scanned.kind === "linkedin" || scanned.kind === "unknown") return;
              event.preventDefault();
              fill(scanned, "pasted text");
            }}
            className={inputClass}
            aria-invalid={linkedin.error ? true : undefined}
            aria-describedby={describedBy(linkedin.error && `${linkedin.id}-error`)}
          />
          <button type="button" onClick={() => void paste()} className="mt-1 inline-flex min-w-12 shrink-0 items-center justify-center gap-1 rounded-xl border border-slate-300 px-3 text-sm font-semibold text-slate-800 hover:bg-slate-50">
            <ClipboardPaste aria-hidden className="size-4" />
            Paste
          </button>
        </div>
        <FieldError id={`${linkedin.id}-error`} message={linkedin.error} />
      </div>

      <TextField {...field("phone")} label="Phone" type="tel" inputMode="tel" autoComplete="off" value={fields.phone} onChange={(e) => set("phone")(e.target.value)} className={inputClass} />

      <fieldset id={temperature.id} aria-describedby={describedBy(temperature.error && `${temperature.id}-error`)}>
        <legend className={labelClass}>How warm?</legend>
        <div className="mt-1 grid grid-cols-3 gap-2">
          {LEAD_TEMPERATURES.map((value) => (
            <label
              key={value}
              className="flex min-h-12 cursor-pointer items-center justify-center rounded-xl border border-slate-300 text-base font-semibold text-slate-800 has-checked:border-brand-600 has-checked:bg-brand-600 has-checked:text-white has-focus-visible:ring-2 has-focus-visible:ring-brand-500"
            >
              <input
                type="radio"
                name={temperature.name}
                value={value}
                checked={fields.temperature === value}
                onChange={() => set("temperature")(value)}
                onClick={() => fields.temperature === value && set("temperature")("")}
                data-error-slot={temperature["data-error-slot"]}
                className="sr-only"
              />
              {LEAD_TEMPERATURE_LABELS[value]}
            </label>
          ))}
        </div>
        <FieldError id={`${temperature.id}-error`} message={temperature.error} />
      </fieldset>

      <TextField {...field("note")} label="Note (one line)" autoComplete="off" value={fields.note} onChange={(e) => set("note")(e.target.value)} className={inputClass} />

      {codes && whereShown ? (
        <div>
          <label htmlFor={whereField.id} className={labelClass}>
            Where you met
          </label>
          <select
            {...fieldControl(whereField)}
            value={where}
            onChange={(e) => setWhere(e.target.value)}
            className={inputClass}
          >
            {codes.map((code) => (
              <option key={code.id} value={code.id}>
                {code.name}
              </option>
            ))}
          </select>
          <FieldError id={`${whereField.id}-error`} message={whereField.error} />
        </div>
      ) : null}

      <FormAlert message={formError} />

      {/* The thumb's end of the sheet: scan, then save. */}
      <div className="sticky bottom-0 -mx-5 mt-1 flex flex-col gap-2 border-t border-slate-100 bg-white px-5 pt-3 md:-mx-6 md:px-6">
        <CameraButton
          scanning={scanner.scanning}
          onStart={() => {
            setNotice(null);
            void scanner.start();
          }}
          onStop={scanner.stop}
        />
        <button type="submit" disabled={busy} className="inline-flex min-h-14 items-center justify-center gap-2 rounded-xl bg-brand-600 px-4 text-lg font-semibold text-white shadow-sm hover:bg-brand-700 disabled:opacity-60">
          <UserPlus aria-hidden className="size-5" />
          Save person
        </button>
      </div>
    </form>
  );
}
