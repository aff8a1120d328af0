import { CloudOff, TriangleAlert, UserPlus, X } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { Dialog } from "~/components/ui/dialog";
import { SIGNED_OUT_CAPTURE_MESSAGE } from "~/modules/leads/capture/capture-form";
import { forgetCapture, queueCapture, queuedCaptures, syncCaptures, type QueuedCapture } from "~/browser/capture-queue";
import { CaptureForm } from "./capture-person-form";

/** A code the person can be credited to: a QR code's id, or `plain`, with its `codeName`. */
export type CaptureCode = { id: string; name: string };

type Tone = "dark" | "light";

/**
 * 'Add a person' (decision 62), on the booth screen and the lead inbox: a big button, the people
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
  const [limited, setLimited] = useState<string | null>(null);
  const onSyncedRef = useRef(onSynced);
  useEffect(() => {
    onSyncedRef.current = onSynced;
  });

  const refresh = useCallback(() => queuedCaptures(projectId, memberId).then(setWaiting).catch(() => setWaiting([])), [projectId, memberId]);
  const sync = useCallback(async () => {
    const outcome = await syncCaptures(projectId, memberId).catch(() => ({ saved: [], signedOut: false, limited: null }));
    setSignedOut(outcome.signedOut);
    setLimited(outcome.limited);
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
          {limited ? (
            <li role="alert" className={`text-sm font-medium ${dark ? "text-amber-300" : "text-amber-800"}`}>
              Not saved yet: {limited} They wait on this device and are sent then, without you doing anything.
            </li>
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

