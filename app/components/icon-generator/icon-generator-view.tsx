import { CheckCircle2, Download, ImageIcon, LoaderCircle, Smartphone, Sparkles, WandSparkles } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { primaryButtonClass, secondaryButtonClass } from "~/components/ui/buttons";
import { useHydrated } from "~/components/ui/use-hydrated";
import { saveUrlAs } from "~/components/save-file";
import { APP_ICON_CONCEPTS, appIconDownloadName, type AppIconConcept } from "~/modules/icons/concepts";
import { GENERATE_FAILED, generateIcon } from "./generate-icon";

type ConceptState = { status: "idle" | "generating" | "ready"; imageUrl: string | null };

const INITIAL: Record<AppIconConcept, ConceptState> = {
  1: { status: "idle", imageUrl: null },
  2: { status: "idle", imageUrl: null },
  3: { status: "idle", imageUrl: null },
};

const IOS_REQUIREMENTS = [
  "1024 × 1024 pixels, PNG, for the App Store; iOS scales it down for the home screen.",
  "A solid, opaque background: no transparency and no alpha channel.",
  "Square corners: iOS applies its own rounded mask, so don't round or pad the artwork.",
  "sRGB colour; keep the main shapes away from the edges and avoid small text, which is unreadable at home-screen size.",
];

/** The shared button styles, a little narrower and on one line, for two buttons side by side in a card. */
const compact = (buttonClass: string) => `${buttonClass.replace("px-4", "px-3")} whitespace-nowrap`;

/** The developer tool: three concepts, each generated on the server and downloadable. */
export function IconGeneratorView() {
  const hydrated = useHydrated();
  const [concepts, setConcepts] = useState(INITIAL);
  const [runningAll, setRunningAll] = useState(false);
  const busy = runningAll || Object.values(concepts).some((state) => state.status === "generating");

  const update = (concept: AppIconConcept, state: Partial<ConceptState>) =>
    setConcepts((current) => ({ ...current, [concept]: { ...current[concept], ...state } }));

  async function generate(concept: AppIconConcept): Promise<void> {
    update(concept, { status: "generating" });
    try {
      const imageUrl = await generateIcon(concept);
      update(concept, { status: "ready", imageUrl });
      toast.success(`Concept ${concept} generated!`);
    } catch (error) {
      console.error(`App icon concept ${concept} failed`, error);
      setConcepts((current) => ({ ...current, [concept]: { ...current[concept], status: current[concept].imageUrl ? "ready" : "idle" } }));
      toast.error(error instanceof Error && error.message ? error.message : GENERATE_FAILED);
    }
  }

  async function generateAll(): Promise<void> {
    setRunningAll(true);
    try {
      // One after another, as the spec says: each concept shows its own result.
      for (const { concept } of APP_ICON_CONCEPTS) await generate(concept);
    } finally {
      setRunningAll(false);
    }
  }

  function download(concept: AppIconConcept): void {
    const imageUrl = concepts[concept].imageUrl;
    if (!imageUrl) return;
    saveUrlAs(imageUrl, appIconDownloadName(concept));
    toast.success("Icon downloaded!");
  }

  return (
    <main className="mx-auto max-w-6xl px-4 pb-16 pt-8 sm:pt-12">
      <header className="flex flex-col gap-5 sm:flex-row sm:items-end sm:justify-between">
        <div className="max-w-2xl">
          <p className="text-sm font-semibold uppercase tracking-wide text-brand-600">Developer tool</p>
          <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">App Icon Generator</h1>
          <p className="mt-2 text-slate-600">
            Three icon concepts for the app, drawn as vector shapes and rendered on the server to 1024 × 1024 PNGs with a solid
            background, ready for the App Store.
          </p>
        </div>
        <button type="button" onClick={generateAll} disabled={!hydrated || busy} className={`${primaryButtonClass} sm:shrink-0`}>
          {runningAll ? <LoaderCircle aria-hidden className="size-4 animate-spin" /> : <Sparkles aria-hidden className="size-4" />}
          Generate All 3 Concepts
        </button>
      </header>

      <section aria-label="Icon concepts" className="mt-8 grid gap-5 md:grid-cols-3">
        {APP_ICON_CONCEPTS.map(({ concept, name, description }) => {
          const state = concepts[concept];
          const generating = state.status === "generating";
          return (
            <article
              key={concept}
              aria-labelledby={`concept-${concept}-title`}
              className="flex flex-col rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
            >
              <div className="relative mx-auto aspect-square w-full max-w-72">
                {state.imageUrl ? (
                  <img
                    src={state.imageUrl}
                    alt={`${name} app icon (concept ${concept})`}
                    width={1024}
                    height={1024}
                    className={`size-full rounded-[22.5%] shadow-lg ring-1 ring-black/5 transition-opacity ${generating ? "opacity-50" : ""}`}
                  />
                ) : (
                  <div className="flex size-full flex-col items-center justify-center gap-2 rounded-[22.5%] border-2 border-dashed border-slate-300 bg-slate-50 text-slate-500">
                    {generating ? <LoaderCircle aria-hidden className="size-8 animate-spin text-brand-600" /> : <ImageIcon aria-hidden className="size-8" />}
                    <span className="text-sm font-medium">{generating ? "Generating..." : "Not generated yet"}</span>
                  </div>
                )}
                {state.status === "ready" ? (
                  <span className="absolute -right-1 -top-1 inline-flex items-center gap-1 rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-semibold text-emerald-700 ring-1 ring-emerald-200">
                    <CheckCircle2 aria-hidden className="size-3.5" />
                    1024 × 1024
                  </span>
                ) : null}
              </div>

              <div className="mt-5 flex-1">
                <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">Concept {concept}</p>
                <h2 id={`concept-${concept}-title`} className="mt-0.5 text-lg font-semibold tracking-tight text-slate-900">
                  {name}
                </h2>
                <p className="mt-1 text-sm leading-relaxed text-slate-600">{description}</p>
              </div>

              <div className="mt-4 grid gap-2 sm:grid-cols-2 md:grid-cols-1 lg:grid-cols-2">
                <button type="button" onClick={() => void generate(concept)} disabled={!hydrated || busy} className={`${compact(secondaryButtonClass)} ${state.imageUrl ? "" : "sm:col-span-2 md:col-span-1 lg:col-span-2"}`}>
                  {generating ? <LoaderCircle aria-hidden className="size-4 shrink-0 animate-spin" /> : <WandSparkles aria-hidden className="size-4 shrink-0" />}
                  {generating ? "Generating..." : "Generate"}
                </button>
                {state.imageUrl ? (
                  <button type="button" onClick={() => download(concept)} disabled={generating} className={compact(primaryButtonClass)}>
                    <Download aria-hidden className="size-4 shrink-0" />
                    Download PNG
                  </button>
                ) : null}
              </div>
            </article>
          );
        })}
      </section>

      <aside aria-labelledby="ios-requirements-title" className="mt-8 rounded-2xl border border-sky-200 bg-sky-50 p-5 sm:p-6">
        <div className="flex items-start gap-3">
          <span aria-hidden className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-white text-sky-700 ring-1 ring-sky-200">
            <Smartphone className="size-5" />
          </span>
          <div className="min-w-0">
            <h2 id="ios-requirements-title" className="text-base font-semibold text-slate-900">
              iOS icon requirements
            </h2>
            <ul className="mt-2 list-disc space-y-1 pl-5 text-sm leading-relaxed text-slate-700 marker:text-sky-400">
              {IOS_REQUIREMENTS.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          </div>
        </div>
      </aside>
    </main>
  );
}
