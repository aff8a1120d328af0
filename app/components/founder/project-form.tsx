import { AlertTriangle, ArrowLeft, ExternalLink, LoaderCircle } from "lucide-react";
import { type FormEvent, useCallback, useRef, useState } from "react";
import { Form, Link, useFetcher, useNavigation } from "react-router";
import { toast } from "sonner";
import { FormSection } from "~/components/ui/card";
import { TextAreaField, TextField } from "~/components/ui/form-fields";
import { StatusBadge } from "~/components/ui/status-badge";
import { useSettledResult } from "~/components/ui/use-settled-result";
import { validate } from "~/modules/forms/validation";
import type { FormResult } from "~/modules/http/form-result";
import { deriveSlug, LIMITS, projectFormSchema, readProjectForm } from "~/modules/projects/project-form";
import { fieldDomId, focusSlot, screenErrors, type KeptRows } from "./form/form-errors";
import {
  adoptSavedTierIds,
  keptMetricRows,
  keptPointRows,
  metricRows,
  metricsJson,
  pointRows,
  pointsJson,
  tierRows,
  tiersJson,
  type MetricRow,
  type MetricValue,
  type PointRow,
  type TierRow,
  type TierValue,
} from "./form/form-state";
import { MetricsEditor, PointsEditor } from "./form/list-editors";
import { StatusField } from "./form/status-field";
import { TiersEditor } from "./form/tiers-editor";
import { ProjectSectionTop } from "./project-section-nav";

export type ProjectFormProject = {
  id: string;
  title: string;
  slug: string;
  oneLiner: string;
  summary: string;
  videoUrl: string;
  deckUrl: string;
  calendlyUrl: string;
  status: string;
  metrics: MetricValue[];
  problemPoints: string[];
  solutionPoints: string[];
  tiers: TierValue[];
};

type ProjectFormProps = {
  mode: "create" | "edit";
  project?: ProjectFormProject;
  defaultTiers?: TierValue[];
  publicUrl: string;
  actionData?: FormResult;
};

type Errors = Record<string, string>;

const SAVE_FAILED = "Failed to save project";

function without(errors: Errors, drop: (slot: string) => boolean): Errors {
  return Object.fromEntries(Object.entries(errors).filter(([slot]) => !drop(slot)));
}

/**
 * The project form, create and edit (SPEC.md section 2, DESIGN.md item 3).
 * - Create posts a plain form; the action redirects to the edit screen with a flash toast.
 * - Edit posts `intent=save` through a fetcher and toasts the answer.
 * - Both run the shared schema first: messages go under the fields (paths such as `tiers.1.rangeMax` map to
 *   the field on screen) and the first one gets focus. Lists travel as JSON in hidden inputs.
 */
export function ProjectForm({ mode, project, defaultTiers, publicUrl, actionData }: ProjectFormProps) {
  const isEdit = mode === "edit";
  const fetcher = useFetcher<FormResult>();
  const navigation = useNavigation();
  const busy = isEdit ? fetcher.state !== "idle" : navigation.state !== "idle" && navigation.formData !== undefined;
  const idle = isEdit ? fetcher.state === "idle" : navigation.state === "idle";

  const [title, setTitle] = useState(project?.title ?? "");
  const [slug, setSlug] = useState(project?.slug ?? "");
  // The slug follows the title for a new project until the founder types in it; never on edit.
  const [slugEdited, setSlugEdited] = useState(isEdit);
  const [metrics, setMetrics] = useState<MetricRow[]>(() => metricRows(project?.metrics ?? []));
  const [problemPoints, setProblemPoints] = useState<PointRow[]>(() => pointRows("problem", project?.problemPoints ?? []));
  const [solutionPoints, setSolutionPoints] = useState<PointRow[]>(() => pointRows("solution", project?.solutionPoints ?? []));
  const [tiers, setTiers] = useState<TierRow[]>(() => tierRows(project?.tiers ?? defaultTiers ?? []));

  // A save gives new tiers their ids (the edit loader revalidates); adopt them so the next save updates them.
  const savedTiers = project?.tiers;
  const [seenSavedTiers, setSeenSavedTiers] = useState(savedTiers);
  if (savedTiers !== seenSavedTiers) {
    setSeenSavedTiers(savedTiers);
    if (savedTiers) setTiers((rows) => adoptSavedTierIds(rows, savedTiers));
  }

  const rowCounter = useRef(0);
  const newKey = useCallback(() => `row-${++rowCounter.current}`, []);

  const kept: KeptRows = {
    metrics: keptMetricRows(metrics),
    problemPoints: keptPointRows(problemPoints),
    solutionPoints: keptPointRows(solutionPoints),
  };

  const serverResult = isEdit ? (fetcher.data ?? actionData) : actionData;
  const serverErrors = !busy && serverResult && !serverResult.ok ? screenErrors(serverResult.fieldErrors ?? {}, kept) : null;
  // Client messages (or what is left of the server's once the founder edits a field) win over the server's.
  const [clientErrors, setClientErrors] = useState<Errors | null>(null);
  const errors: Errors = clientErrors ?? serverErrors ?? {};

  const dismiss = (drop: (slot: string) => boolean) =>
    setClientErrors((current) => {
      const base = current ?? serverErrors ?? {};
      return Object.keys(base).some(drop) ? without(base, drop) : current;
    });
  const reshaped = (list: string) => () => dismiss((slot) => slot === list || slot.startsWith(`${list}.`));

  useSettledResult(serverResult, idle, (result: FormResult) => {
    if (result.ok) {
      toast.success(result.message);
      return;
    }
    toast.error(result.formError || SAVE_FAILED);
    focusSlot(Object.keys(screenErrors(result.fieldErrors ?? {}, kept))[0]);
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (busy) {
      event.preventDefault();
      return;
    }
    const result = validate(projectFormSchema, readProjectForm(new FormData(event.currentTarget)));
    if (result.ok) {
      setClientErrors(null);
      return;
    }
    event.preventDefault();
    const slots = screenErrors(result.fieldErrors, kept);
    setClientErrors(slots);
    focusSlot(Object.keys(slots)[0]);
  }

  function onInput(event: FormEvent<HTMLFormElement>) {
    const slot = event.target instanceof HTMLElement ? event.target.dataset.errorSlot : undefined;
    if (slot) dismiss((key) => key === slot);
  }

  const FormElement = isEdit ? fetcher.Form : Form;
  const savedPublished = isEdit && project?.status === "published";
  const slugChanged = isEdit && project !== undefined && slug.trim() !== project.slug;
  const liveUrl = `${publicUrl}/pitch/${slug.trim() || "your-project"}`;

  return (
    <main className="mx-auto max-w-3xl px-4 pb-10 pt-5 sm:pt-8">
      {isEdit && project ? (
        <ProjectSectionTop projectId={project.id} current="details" />
      ) : (
        <Link to="/my-projects" className="-ml-1 inline-flex items-center gap-1 rounded-md px-1 py-0.5 text-sm font-medium text-slate-600 hover:text-slate-900">
          <ArrowLeft aria-hidden className="size-4" /> Back to Projects
        </Link>
      )}

      <div className={`${isEdit ? "" : "mt-3 "}flex flex-wrap items-end justify-between gap-x-4 gap-y-3`}>
        <div className="min-w-0">
          <h1 className="text-2xl font-bold tracking-tight text-slate-950 sm:text-3xl">{isEdit ? "Edit Project" : "Create Project"}</h1>
          {isEdit && project ? (
            <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-600">
              <span className="truncate font-medium text-slate-800">{project.title}</span>
              <StatusBadge status={project.status} look="plain" />
            </p>
          ) : (
            <p className="mt-1 text-sm text-slate-600">Set up your pitch page. You can change everything later.</p>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
        {savedPublished && project ? (
          <a
            href={`/pitch/${project.slug}`}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex items-center gap-1.5 rounded-lg border border-slate-300 bg-white px-3.5 py-2 text-sm font-semibold text-slate-800 shadow-sm hover:bg-slate-50"
          >
            <ExternalLink aria-hidden className="size-4" />
            Preview Live
            <span className="sr-only">(opens in a new tab)</span>
          </a>
        ) : null}
        </div>
      </div>

      <FormElement
        method="post"
        action={isEdit && project ? `/project/${project.id}/edit` : undefined}
        noValidate
        onSubmit={onSubmit}
        onInput={onInput}
        aria-label={isEdit ? "Edit project" : "Create project"}
        className="mt-6 space-y-4 sm:space-y-5 [&_input]:scroll-mt-24 [&_input]:scroll-mb-28 [&_textarea]:scroll-mt-24 [&_textarea]:scroll-mb-28"
      >
        {isEdit ? <input type="hidden" name="intent" value="save" /> : null}
        <input type="hidden" name="metrics" value={metricsJson(metrics)} />
        <input type="hidden" name="problemPoints" value={pointsJson(problemPoints)} />
        <input type="hidden" name="solutionPoints" value={pointsJson(solutionPoints)} />
        <input type="hidden" name="tiers" value={tiersJson(tiers)} />

        <FormSection id="section-basics" title="Basics" description="What visitors see first when they scan your code.">
          <TextField
            id={fieldDomId("title")}
            name="title"
            label="Project Title"
            required
            maxLength={LIMITS.title}
            autoComplete="off"
            placeholder="e.g. Acme Robotics"
            value={title}
            onChange={(event) => {
              setTitle(event.target.value);
              if (!slugEdited) setSlug(deriveSlug(event.target.value));
            }}
            data-error-slot="title"
            error={errors.title}
          />
          <TextField
            id={fieldDomId("slug")}
            name="slug"
            label="URL Slug"
            required
            maxLength={LIMITS.slug}
            autoComplete="off"
            autoCapitalize="none"
            autoCorrect="off"
            spellCheck={false}
            placeholder="acme-robotics"
            value={slug}
            onChange={(event) => {
              setSlug(event.target.value);
              setSlugEdited(true);
            }}
            data-error-slot="slug"
            error={errors.slug}
            hint={
              <>
                Your project will live at <span className="break-all font-medium text-slate-700">{liveUrl}</span>
                {isEdit && project?.slug ? (
                  <span
                    className={`mt-2 flex items-start gap-1.5 rounded-lg px-2.5 py-2 text-xs ${
                      slugChanged ? "bg-amber-100 text-amber-900 ring-1 ring-amber-300" : "bg-amber-50 text-amber-800"
                    }`}
                  >
                    <AlertTriangle aria-hidden className="mt-px size-3.5 shrink-0" />
                    <span>
                      {slugChanged ? (
                        <>
                          <strong className="font-semibold">Heads up:</strong> saving this slug breaks QR codes already printed for{" "}
                          <span className="break-all font-medium">/pitch/{project.slug}</span>.
                        </>
                      ) : (
                        "Changing the slug breaks QR codes already printed: they point to the current address."
                      )}
                    </span>
                  </span>
                ) : null}
              </>
            }
          />
          <TextField
            id={fieldDomId("oneLiner")}
            name="oneLiner"
            label="One-Liner"
            required
            maxLength={LIMITS.oneLiner}
            placeholder="e.g. Warehouse robots that pay for themselves in 6 months"
            defaultValue={project?.oneLiner ?? ""}
            data-error-slot="oneLiner"
            error={errors.oneLiner}
          />
        </FormSection>

        <FormSection id="section-details" title="Pitch details" description="Optional, but a short video and a deck turn scans into meetings.">
          <TextField
            id={fieldDomId("videoUrl")}
            name="videoUrl"
            type="url"
            inputMode="url"
            label="Video URL (YouTube, Vimeo, Loom)"
            placeholder="https://www.youtube.com/watch?v=…"
            defaultValue={project?.videoUrl ?? ""}
            data-error-slot="videoUrl"
            error={errors.videoUrl}
          />
          <TextAreaField
            id={fieldDomId("summary")}
            name="summary"
            label="Project Summary"
            rows={5}
            maxLength={LIMITS.summary}
            placeholder="What you are building, for whom, and why now."
            defaultValue={project?.summary ?? ""}
            data-error-slot="summary"
            error={errors.summary}
          />
          <div className="grid gap-5 sm:grid-cols-2 sm:gap-4">
            <TextField
              id={fieldDomId("deckUrl")}
              name="deckUrl"
              type="url"
              inputMode="url"
              label="Deck URL"
              placeholder="https://…"
              defaultValue={project?.deckUrl ?? ""}
              data-error-slot="deckUrl"
              error={errors.deckUrl}
            />
            <TextField
              id={fieldDomId("calendlyUrl")}
              name="calendlyUrl"
              type="url"
              inputMode="url"
              label="Calendly/Booking URL"
              placeholder="https://calendly.com/…"
              defaultValue={project?.calendlyUrl ?? ""}
              data-error-slot="calendlyUrl"
              error={errors.calendlyUrl}
            />
          </div>
        </FormSection>

        <FormSection id="section-metrics" title="Traction Metrics" description="Numbers that show momentum, shown as chips under your one-liner.">
          <MetricsEditor rows={metrics} onChange={setMetrics} onReshape={reshaped("metrics")} errors={errors} newKey={newKey} />
        </FormSection>

        <FormSection id="section-problem-solution" title="Problem & Solution" description="Short points, one idea each.">
          <div className="grid gap-6 md:grid-cols-2 md:gap-5">
            <PointsEditor
              name="problemPoints"
              title="Problem points"
              noun="problem point"
              placeholder="e.g. Picking errors cost 3% of revenue"
              rows={problemPoints}
              onChange={setProblemPoints}
              onReshape={reshaped("problemPoints")}
              errors={errors}
              newKey={newKey}
            />
            <PointsEditor
              name="solutionPoints"
              title="Solution points"
              noun="solution point"
              placeholder="e.g. Vision-guided arms, no retooling"
              rows={solutionPoints}
              onChange={setSolutionPoints}
              onReshape={reshaped("solutionPoints")}
              errors={errors}
              newKey={newKey}
            />
          </div>
        </FormSection>

        <FormSection id="section-tiers" title="Signal Tiers" description={`The ranges visitors can signal interest in, in the order shown on your pitch page. Leave Max empty for an open-ended tier; up to ${LIMITS.perks} perks each.`}>
          <TiersEditor rows={tiers} onChange={setTiers} onReshape={reshaped("tiers")} errors={errors} newKey={newKey} />
        </FormSection>

        <StatusField defaultValue={project?.status === "published" ? "published" : "draft"} error={errors.status} />

        <div className="sticky bottom-0 z-10 -mx-4 border-t border-slate-200 bg-white/95 px-4 pb-[calc(0.75rem+env(safe-area-inset-bottom))] pt-3 backdrop-blur sm:bottom-4 sm:mx-0 sm:rounded-2xl sm:border sm:pb-3 sm:shadow-lg">
          <div className="flex items-center justify-between gap-3">
            <p className="hidden text-sm text-slate-600 sm:block">
              {isEdit ? "Changes go live on your pitch page when you save." : "You can add tracked QR codes after creating the project."}
            </p>
            <button
              type="submit"
              disabled={busy}
              className="inline-flex w-full items-center justify-center gap-2 rounded-xl bg-brand-600 px-5 py-3 text-base font-semibold text-white shadow-sm transition-colors hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-60 sm:w-auto sm:py-2.5 sm:text-sm"
            >
              {busy ? <LoaderCircle aria-hidden className="size-4 animate-spin" /> : null}
              {busy ? "Saving..." : isEdit ? "Update Project" : "Create Project"}
            </button>
          </div>
        </div>
      </FormElement>

    </main>
  );
}
