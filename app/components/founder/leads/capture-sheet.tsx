import { ClipboardPaste, CloudOff, QrCode, ScanLine, TriangleAlert, UserPlus, X } from "lucide-react";
import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import { Dialog } from "~/components/ui/dialog";
import { LIMITS } from "~/modules/forms/visitor-limits";
import { LEAD_TEMPERATURE_LABELS, LEAD_TEMPERATURES } from "~/modules/formats/lead-triage";
import { validate, type FieldErrors } from "~/modules/forms/validation";
import { CAPTURE_NOTE_MAX_LENGTH, captureSchema, SIGNED_OUT_CAPTURE_MESSAGE, type CaptureFields } from "~/modules/leads/capture-form";
import { forgetCapture, newCaptureKey, queueCapture, queuedCaptures, syncCaptures, type QueuedCapture } from "~/modules/leads/capture-queue";
import { parseContactQr, type ScannedContact } from "~/modules/leads/contact-qr";
import { canUseCamera, scanQrCode } from "~/modules/leads/qr-camera";

/** A code the person can be credited to: a QR code's id, or `plain`, with its `codeName`. */
export type CaptureCode = { id: string; name: string };

type Tone = "dark" | "light";

const EMPTY_FIELDS = { name: "", email: "", linkedinUrl: "", temperature: "", note: "" };
type EditableFields = typeof EMPTY_FIELDS;

const SCANNED_KINDS: Record<ScannedContact["kind"], string> = {
  vcard: "contact card",
  mecard: "contact card",
  linkedin: "LinkedIn profile",
  mailto: "e-mail link",
  email: "e-mail address",
  unknown: "",
};

/**
 * 'Add a person' (issue 29 item 2, decision 62), on the booth screen and the lead inbox: a big button, the people
 * still waiting to reach the server ("not yet synced"), and a bottom sheet to scan their QR code, paste a LinkedIn
 * URL or type them in, then save. A capture is kept on the device first and sent from there, so a lost connection
 * loses nobody.
 */
export function AddPerson({
  projectId,
  memberId,
  codes,
  codeId,
  tone,
  onSynced,
}: {
  projectId: string;
  /** The signed-in member: what they left waiting on this device is theirs to send. */
  memberId: string;
  /** Where they were met, when the screen does not say (the inbox): a choice among these, the first by default. */
  codes?: CaptureCode[];
  /** The code the booth shows: the person is credited to it. */
  codeId?: string;
  tone: Tone;
  onSynced?: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [waiting, setWaiting] = useState<QueuedCapture[]>([]);
  const [saved, setSaved] = useState<string | null>(null);
  const [signedOut, setSignedOut] = useState(false);
  const onSyncedRef = useRef(onSynced);
  useEffect(() => {
    onSyncedRef.current = onSynced;
  });

  const refresh = useCallback(() => queuedCaptures(projectId, memberId).then(setWaiting).catch(() => setWaiting([])), [projectId, memberId]);
  const sync = useCallback(async () => {
    const outcome = await syncCaptures(projectId, memberId).catch(() => ({ saved: [], signedOut: false }));
    setSignedOut(outcome.signedOut);
    await refresh();
    if (outcome.saved.length) {
      setSaved(outcome.saved.map((entry) => entry.message).join(" · "));
      onSyncedRef.current?.();
    }
  }, [projectId, memberId, refresh]);

  useEffect(() => {
    const retry = () => void sync();
    // Whatever an earlier visit left waiting goes now.
    queueMicrotask(retry);
    window.addEventListener("online", retry);
    // The server may come back without the browser noticing a change of network.
    const timer = setInterval(retry, 30_000);
    return () => {
      window.removeEventListener("online", retry);
      clearInterval(timer);
    };
  }, [sync]);

  const dark = tone === "dark";
  return (
    <div className="flex flex-col gap-2">
      {/* Always there, so a screen reader announces what lands in it. */}
      <p role="status" className={`text-sm font-medium empty:hidden ${dark ? "text-emerald-300" : "text-emerald-700"}`}>
        {saved ? `Saved: ${saved}` : null}
      </p>
      {waiting.length ? (
        <ul aria-label="People not yet synced" className="space-y-1.5">
          {signedOut ? (
            <li className={`text-sm font-medium ${dark ? "text-amber-300" : "text-amber-800"}`}>{SIGNED_OUT_CAPTURE_MESSAGE}</li>
          ) : null}
          {waiting.map((capture) => (
            <li
              key={capture.key}
              data-capture-waiting
              className={`flex items-center gap-2 rounded-lg px-3 py-2 text-sm ring-1 ${dark ? "bg-slate-900 ring-slate-800" : "bg-amber-50 ring-amber-200"}`}
            >
              {capture.refused ? <TriangleAlert aria-hidden className="size-4 shrink-0 text-red-500" /> : <CloudOff aria-hidden className="size-4 shrink-0 text-amber-500" />}
              <span className="min-w-0 flex-1">
                <span className="font-semibold">{capture.fields.name}</span>{" "}
                {capture.refused ? <span className={dark ? "text-red-300" : "text-red-700"}>not saved: {capture.refused}</span> : <span>— not yet synced</span>}
              </span>
              {capture.refused ? (
                <button
                  type="button"
                  onClick={() => void forgetCapture(capture.key).then(refresh)}
                  aria-label={`Remove ${capture.fields.name}`}
                  className="inline-flex size-9 items-center justify-center rounded-md hover:bg-slate-500/20"
                >
                  <X aria-hidden className="size-4" />
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {/* Last, so on the booth it sits at the bottom of the screen, under the thumb. */}
      <button
        type="button"
        onClick={() => {
          setSaved(null);
          setOpen(true);
        }}
        className={`inline-flex min-h-12 items-center justify-center gap-2 rounded-xl px-5 py-3 text-base font-semibold shadow-sm sm:self-start ${
          dark ? "bg-white text-slate-950 hover:bg-slate-100" : "bg-brand-600 text-white hover:bg-brand-700"
        }`}
      >
        <UserPlus aria-hidden className="size-5" />
        Add a person
      </button>
      <Dialog
        open={open}
        title="Add a person"
        description="Scan their QR code, paste their LinkedIn URL or type their details. It lands in your lead inbox."
        icon={<UserPlus className="size-5" />}
        closeTo={{ hash: "" }}
        onClose={() => setOpen(false)}
      >
        <CaptureForm
          codes={codes}
          codeId={codeId}
          onSaved={async (fields) => {
            await queueCapture(projectId, memberId, fields);
            setOpen(false);
            await refresh();
            await sync();
          }}
        />
      </Dialog>
    </div>
  );
}

function CaptureForm({ codes, codeId, onSaved }: { codes?: CaptureCode[]; codeId?: string; onSaved: (fields: CaptureFields) => Promise<void> }) {
  const [fields, setFields] = useState<EditableFields>(EMPTY_FIELDS);
  const [where, setWhere] = useState(codeId ?? codes?.[0]?.id ?? "plain");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [notice, setNotice] = useState<{ text: string; warning: boolean } | null>(null);
  const [scanning, setScanning] = useState(false);
  const [busy, setBusy] = useState(false);
  const videoRef = useRef<HTMLVideoElement>(null);
  const stopCamera = useRef<(() => void) | null>(null);
  const id = useId();

  useEffect(() => () => stopCamera.current?.(), []);

  const fill = (scanned: ScannedContact, from: string) => {
    if (scanned.kind === "unknown") {
      setNotice({ text: `That ${from} is not a contact: nothing was filled in. Type their details instead.`, warning: true });
      return;
    }
    setFields((current) => ({
      ...current,
      name: scanned.name || current.name,
      email: scanned.email || current.email,
      linkedinUrl: scanned.linkedinUrl || current.linkedinUrl,
      note: current.note || scanned.note,
    }));
    setErrors({});
    const missing = scanned.email ? "" : " Ask for their e-mail: it is needed to save them.";
    setNotice({ text: `Read from their ${SCANNED_KINDS[scanned.kind]}. Check the details, then save.${missing}`, warning: !scanned.email });
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
      email: data.email,
      linkedinUrl: data.linkedinUrl ?? "",
      temperature: data.temperature ?? "",
      note: data.note ?? "",
    }).finally(() => setBusy(false));
  };

  const set = (name: keyof EditableFields) => (value: string) => setFields((current) => ({ ...current, [name]: value }));
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

      <Field id={`${id}-name`} label="Name" error={errors.name}>
        <input id={`${id}-name`} name="name" autoComplete="off" maxLength={LIMITS.name} value={fields.name} onChange={(e) => set("name")(e.target.value)} className={input} aria-invalid={Boolean(errors.name)} aria-describedby={errors.name ? `${id}-name-error` : undefined} />
      </Field>
      <Field id={`${id}-email`} label="E-mail" error={errors.email}>
        <input id={`${id}-email`} name="email" type="email" inputMode="email" autoComplete="off" maxLength={LIMITS.email} value={fields.email} onChange={(e) => set("email")(e.target.value)} className={input} aria-invalid={Boolean(errors.email)} aria-describedby={errors.email ? `${id}-email-error` : undefined} />
      </Field>
      <Field id={`${id}-linkedin`} label="LinkedIn (optional)" error={errors.linkedinUrl}>
        <div className="flex items-stretch gap-2">
          <input
            id={`${id}-linkedin`}
            name="linkedinUrl"
            type="url"
            inputMode="url"
            placeholder="https://www.linkedin.com/in/…"
            maxLength={LIMITS.url}
            value={fields.linkedinUrl}
            onChange={(e) => set("linkedinUrl")(e.target.value)}
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
          <button type="button" onClick={() => void paste()} className="mt-1 inline-flex min-w-12 items-center justify-center gap-1 rounded-xl border border-slate-300 px-3 text-sm font-semibold text-slate-800 hover:bg-slate-50">
            <ClipboardPaste aria-hidden className="size-4" />
            Paste
          </button>
        </div>
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

function Field({ id, label, error, children }: { id: string; label: string; error: string | undefined; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {children}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
