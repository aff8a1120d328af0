import { ClipboardPaste, QrCode, ScanLine, UserPlus, X } from "lucide-react";
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import { LIMITS } from "~/modules/forms/visitor-limits";
import { LEAD_TEMPERATURE_LABELS, LEAD_TEMPERATURES } from "~/modules/formats/lead-triage";
import { validate, type FieldErrors } from "~/modules/forms/validation";
import { CAPTURE_NOTE_MAX_LENGTH, CAPTURE_ONE_WAY_MESSAGE, CAPTURE_PHONE_MAX_LENGTH, captureSchema, nameFromLinkedIn, type CaptureFields } from "~/modules/leads/capture/capture-form";
import { newCaptureKey } from "~/browser/capture-queue";
import { parseContactQr, type ScannedContact } from "~/modules/leads/capture/contact-qr";
import { canUseCamera, scanQrCode } from "~/browser/qr-camera";
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

/**
 * The sheet's form (decision 62, 92): scan their QR code, paste a LinkedIn URL (its slug suggests the name while the
 * name is empty) or type them in; a name and one of e-mail, LinkedIn or phone save them.
 */
export function CaptureForm({ codes, codeId, onSaved }: { codes?: CaptureCode[]; codeId?: string; onSaved: (fields: CaptureFields) => Promise<void> }) {
  const [fields, setFields] = useState<EditableFields>(EMPTY_FIELDS);
  const [where, setWhere] = useState(codeId ?? codes?.[0]?.id ?? "plain");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [notice, setNotice] = useState<{ text: string; warning: boolean } | null>(null);
  const [scanning, setScanning] = useState(false);
  const [busy, setBusy] = useState(false);
  // The name the LinkedIn URL suggested, while the name field still holds it: a later URL may replace it.
  const [suggestedName, setSuggestedName] = useState<string | null>(null);
  const videoRef = useRef<HTMLVideoElement>(null);
  const stopCamera = useRef<(() => void) | null>(null);
  const id = useId();

  useEffect(() => () => stopCamera.current?.(), []);

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
    setErrors({});
    const missing = scanned.email ? "" : " No e-mail: they are saved without one, and you add it later to reply.";
    setNotice({ text: `Read from their ${SCANNED_KINDS[scanned.kind]}. Check the details, then save.${missing}`, warning: false });
  };

  const startScan = async () => {
    setNotice(null);
    setScanning(true);
    // The video element renders with `scanning`; wait a frame for it.
    await new Promise((resolve) => requestAnimationFrame(resolve));
    const video = videoRef.current;
    if (!video) return;
    try {
      stopCamera.current = await scanQrCode(video, (text) => {
        stopCamera.current = null;
        setScanning(false);
        fill(parseContactQr(text), "QR code");
      });
    } catch {
      setScanning(false);
      setNotice({ text: "The camera could not start. Allow the camera, or type their details.", warning: true });
    }
  };

  const stopScan = () => {
    stopCamera.current?.();
    stopCamera.current = null;
    setScanning(false);
  };

  const paste = async () => {
    try {
      const text = await navigator.clipboard.readText();
      fill(parseContactQr(text), "pasted text");
    } catch {
      setNotice({ text: "Nothing could be pasted: paste into the LinkedIn field instead.", warning: true });
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const submitted: CaptureFields = { key: newCaptureKey(), codeId: where, ...fields };
    const checked = validate(captureSchema, submitted);
    if (!checked.ok) {
      setErrors(checked.fieldErrors);
      return;
    }
    setBusy(true);
    stopScan();
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
    if (value.trim() && WAYS_TO_REACH.includes(name) && errors.email === CAPTURE_ONE_WAY_MESSAGE) setErrors(({ email: _answered, ...rest }) => rest);
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
  const input = "mt-1 block w-full rounded-xl border border-slate-300 bg-white px-3.5 py-3 text-base text-slate-950 shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30";

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="flex flex-col gap-4">
      {scanning ? (
        <div className="relative overflow-hidden rounded-2xl bg-slate-950">
          <video ref={videoRef} aria-label="Camera" className="aspect-square w-full object-cover" muted playsInline />
          <ScanLine aria-hidden className="pointer-events-none absolute inset-0 m-auto size-2/3 text-white/70" />
          <p className="absolute inset-x-0 bottom-0 bg-slate-950/70 px-3 py-2 text-center text-sm text-white">Point the camera at their QR code</p>
        </div>
      ) : null}
      {notice ? (
        <p role="status" className={`rounded-xl px-3 py-2 text-sm ${notice.warning ? "bg-amber-50 text-amber-900 ring-1 ring-amber-200" : "bg-emerald-50 text-emerald-900 ring-1 ring-emerald-200"}`}>
          {notice.text}
        </p>
      ) : null}

      <p id={`${id}-rule`} className="text-sm text-slate-600">
        Their name, and one of e-mail, LinkedIn or phone. Without an e-mail you add it later to reply.
      </p>
      <Field id={`${id}-name`} label="Name" error={errors.name} hint={suggestedName && fields.name === suggestedName ? "Suggested from their LinkedIn URL: change it if they spell it otherwise" : undefined}>
        <input
          id={`${id}-name`}
          name="name"
          autoComplete="off"
          maxLength={LIMITS.name}
          value={fields.name}
          onChange={(e) => setName(e.target.value)}
          className={input}
          aria-invalid={Boolean(errors.name)}
          aria-describedby={errors.name ? `${id}-name-error` : suggestedName && fields.name === suggestedName ? `${id}-name-hint` : undefined}
        />
      </Field>
      <Field id={`${id}-email`} label="E-mail" error={errors.email}>
        <input id={`${id}-email`} name="email" type="email" inputMode="email" autoComplete="off" maxLength={LIMITS.email} value={fields.email} onChange={(e) => set("email")(e.target.value)} className={input} aria-invalid={Boolean(errors.email)} aria-describedby={errors.email ? `${id}-email-error` : `${id}-rule`} />
      </Field>
      <Field id={`${id}-linkedin`} label="LinkedIn" error={errors.linkedinUrl}>
        <div className="flex items-stretch gap-2">
          <input
            id={`${id}-linkedin`}
            name="linkedinUrl"
            type="url"
            inputMode="url"
            placeholder="https://www.linkedin.com/in/…"
            maxLength={LIMITS.url}
            value={fields.linkedinUrl}
            onChange={(e) => setLinkedIn(e.target.value)}
            onPaste={(event) => {
              // A whole card or an e-mail link pasted here fills the form, as a scan would; a LinkedIn URL pastes as it is.
              const scanned = parseContactQr(event.clipboardData.getData("text"));
              if (scanned.kind === "linkedin" || scanned.kind === "unknown") return;
              event.preventDefault();
              fill(scanned, "pasted text");
            }}
            className={input}
            aria-invalid={Boolean(errors.linkedinUrl)} aria-describedby={errors.linkedinUrl ? `${id}-linkedin-error` : undefined}
          />
          <button type="button" onClick={() => void paste()} className="mt-1 inline-flex min-w-12 shrink-0 items-center justify-center gap-1 rounded-xl border border-slate-300 px-3 text-sm font-semibold text-slate-800 hover:bg-slate-50">
            <ClipboardPaste aria-hidden className="size-4" />
            Paste
          </button>
        </div>
      </Field>

      <Field id={`${id}-phone`} label="Phone" error={errors.phone}>
        <input id={`${id}-phone`} name="phone" type="tel" inputMode="tel" autoComplete="off" maxLength={CAPTURE_PHONE_MAX_LENGTH} value={fields.phone} onChange={(e) => set("phone")(e.target.value)} className={input} aria-invalid={Boolean(errors.phone)} aria-describedby={errors.phone ? `${id}-phone-error` : undefined} />
      </Field>

      <fieldset>
        <legend className="text-sm font-medium text-slate-800">How warm?</legend>
        <div className="mt-1 grid grid-cols-3 gap-2">
          {LEAD_TEMPERATURES.map((temperature) => (
            <label
              key={temperature}
              className="flex min-h-12 cursor-pointer items-center justify-center rounded-xl border border-slate-300 text-base font-semibold text-slate-800 has-checked:border-brand-600 has-checked:bg-brand-600 has-checked:text-white has-focus-visible:ring-2 has-focus-visible:ring-brand-500"
            >
              <input
                type="radio"
                name="temperature"
                value={temperature}
                checked={fields.temperature === temperature}
                onChange={() => set("temperature")(temperature)}
                onClick={() => fields.temperature === temperature && set("temperature")("")}
                className="sr-only"
              />
              {LEAD_TEMPERATURE_LABELS[temperature]}
            </label>
          ))}
        </div>
        {errors.temperature ? <p className="mt-1 text-sm text-red-700">{errors.temperature}</p> : null}
      </fieldset>

      <Field id={`${id}-note`} label="Note (one line)" error={errors.note}>
        <input id={`${id}-note`} name="note" autoComplete="off" maxLength={CAPTURE_NOTE_MAX_LENGTH} value={fields.note} onChange={(e) => set("note")(e.target.value)} className={input} aria-invalid={Boolean(errors.note)} aria-describedby={errors.note ? `${id}-note-error` : undefined} />
      </Field>

      {codes && !codeId ? (
        <Field id={`${id}-where`} label="Where you met" error={errors.codeId}>
          <select id={`${id}-where`} name="codeId" value={where} onChange={(e) => setWhere(e.target.value)} className={input}>
            {codes.map((code) => (
              <option key={code.id} value={code.id}>
                {code.name}
              </option>
            ))}
          </select>
        </Field>
      ) : null}

      {/* The thumb's end of the sheet: scan, then save. */}
      <div className="sticky bottom-0 -mx-5 mt-1 flex flex-col gap-2 border-t border-slate-100 bg-white px-5 pt-3 md:-mx-6 md:px-6">
        {canUseCamera() ? (
          scanning ? (
            <button type="button" onClick={stopScan} className="inline-flex min-h-12 items-center justify-center gap-2 rounded-xl border border-slate-300 px-4 text-base font-semibold text-slate-800 hover:bg-slate-50">
              <X aria-hidden className="size-5" />
              Stop the camera
            </button>
          ) : (
            <button type="button" onClick={() => void startScan()} className="inline-flex min-h-12 items-center justify-center gap-2 rounded-xl border border-slate-300 px-4 text-base font-semibold text-slate-800 hover:bg-slate-50">
              <QrCode aria-hidden className="size-5" />
              Scan their QR code
            </button>
          )
        ) : null}
        <button type="submit" disabled={busy} className="inline-flex min-h-14 items-center justify-center gap-2 rounded-xl bg-brand-600 px-4 text-lg font-semibold text-white shadow-sm hover:bg-brand-700 disabled:opacity-60">
          <UserPlus aria-hidden className="size-5" />
          Save person
        </button>
      </div>
    </form>
  );
}

function Field({ id, label, error, hint, children }: { id: string; label: string; error: string | undefined; hint?: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {children}
      {hint && !error ? (
        <p id={`${id}-hint`} className="mt-1 text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
