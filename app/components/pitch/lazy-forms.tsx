import { createElement, lazy, Suspense, useState, type ComponentType, type ReactNode } from "react";
import type * as PitchForms from "./pitch-forms";

type FormsModule = typeof PitchForms;
type FormName = "IntroForm" | "SubscribeForm" | "SignalForm";

let loaded: FormsModule | null = null;
let loading: Promise<FormsModule> | null = null;

/**
 * Loads the forms chunk (once; again after a failure). Called when a visitor points at, focuses or taps a
 * link that opens a form, so the chunk is usually there before the dialog is.
 */
export function preloadPitchForms(): Promise<FormsModule> {
  loading ??= import("./pitch-forms").then(
    (module) => (loaded = module),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

const FORM_DIALOGS = ["intro", "subscribe", "signal"];

/*
 * A dialog opened by `?dialog=` must be complete HTML for a visitor without JavaScript, and hydrate without
 * a mismatch for everyone else. So a form is never inside a Suspense boundary when the server renders it or
 * when the browser hydrates it (React streams a large boundary separately, which only JavaScript can
 * reveal), and it must be here at both times:
 * - the server loads the forms at start-up (a request arriving before that simply waits for them);
 * - the browser, when the page opens with a form dialog, waits for the forms before this module finishes
 *   loading (top-level await), and React Router waits for the route's modules before it hydrates.
 */
if (import.meta.env.SSR) void preloadPitchForms();
else if (typeof window !== "undefined" && FORM_DIALOGS.includes(new URLSearchParams(window.location.search).get("dialog") ?? "")) {
  await preloadPitchForms().catch(() => undefined);
}

/** A thenable that is already resolved: React.lazy then renders at once instead of suspending. */
function resolvedNow<T>(value: T): Promise<T> {
  return { then: (onFulfilled: (value: T) => unknown) => onFulfilled(value) } as unknown as Promise<T>;
}

/**
 * A form as a lazy component. The loader runs once, the first time React renders the form: when the chunk
 * is already here (on the server, while hydrating, usually also later) it hands React an already-resolved
 * thenable, so the form renders at once instead of suspending; otherwise `FormSuspense` shows a skeleton
 * until the chunk arrives, or a retry button if it cannot be loaded.
 */
function formComponent<N extends FormName>(name: N) {
  type Props = React.ComponentProps<FormsModule[N]>;
  const pick = (module: FormsModule) => ({ default: module[name] as ComponentType<Props> });
  return lazy(() => {
    if (loaded) return resolvedNow(pick(loaded));
    return preloadPitchForms().then(pick, (error: unknown) => {
      console.warn("The form could not be loaded", error);
      return { default: (props: Props) => <RetryLoading render={(module) => createElement(module[name] as ComponentType<object>, props as object)} /> };
    });
  });
}

export const LazyIntroForm = formComponent("IntroForm");
export const LazySubscribeForm = formComponent("SubscribeForm");
export const LazySignalForm = formComponent("SignalForm");

/** Shown when the forms chunk failed to load (a dropped connection): try again without losing the page. */
function RetryLoading({ render }: { render: (module: FormsModule) => ReactNode }) {
  const [module, setModule] = useState<FormsModule | null>(loaded);
  const [busy, setBusy] = useState(false);
  if (module) return render(module);
  return (
    <div role="alert" className="rounded-xl bg-red-50 px-4 py-3 text-sm text-red-800">
      <p className="font-medium">The form could not be loaded. Check your connection.</p>
      <button
        type="button"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          preloadPitchForms().then(setModule, () => setBusy(false));
        }}
        className="mt-2 rounded-lg bg-white px-3 py-1.5 font-semibold text-red-800 shadow-sm ring-1 ring-red-200 hover:bg-red-100 disabled:opacity-60"
      >
        {busy ? "Loading..." : "Try again"}
      </button>
    </div>
  );
}

/** While the forms chunk arrives: the shape of a form, so the dialog does not jump. */
function FormSkeleton() {
  return (
    <div aria-busy="true" className="space-y-4">
      <span className="sr-only">Loading the form…</span>
      {[0, 1, 2].map((row) => (
        <div key={row} aria-hidden className="space-y-2">
          <div className="h-4 w-24 animate-pulse rounded bg-slate-200" />
          <div className="h-11 animate-pulse rounded-lg bg-slate-100" />
        </div>
      ))}
      <div aria-hidden className="h-12 animate-pulse rounded-xl bg-slate-200" />
    </div>
  );
}

/**
 * Around a lazy form: a skeleton while the forms load, but only in the browser when they are not loaded yet
 * (see above). Decided once per mount, so the form is never remounted (and emptied) when they arrive.
 */
export function FormSuspense({ children }: { children: ReactNode }) {
  const [needsBoundary] = useState(() => !import.meta.env.SSR && !loaded);
  return needsBoundary ? <Suspense fallback={<FormSkeleton />}>{children}</Suspense> : children;
}

const preload = () => void preloadPitchForms().catch(() => undefined);

/** Spread on links that open a form: the chunk starts loading at the first sign of intent. */
export const preloadFormsOnIntent = { onPointerEnter: preload, onFocus: preload, onTouchStart: preload } as const;
