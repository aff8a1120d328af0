import { useCallback, useRef, useState } from "react";
import { Form, useFetcher, useNavigation } from "react-router";
import { toast } from "sonner";
import { FormSection } from "~/components/ui/card";
import { FormAlert } from "~/components/ui/form-fields";
import { useSchemaForm } from "~/components/ui/use-schema-form";
import type { FormResult } from "~/modules/forms/form-result";
import { LIMITS, projectFormSchema, readProjectForm } from "~/modules/projects/project-form";
import { errorSlot, PROJECT_FORM_ID, type KeptRows } from "./form/form-errors";
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
  type PointRow,
  type ProjectFormProject,
  type TierRow,
  type TierValue,
} from "./form/form-state";
import { MetricsEditor, PointsEditor } from "./form/list-editors";
import { ProjectFormHeader } from "./form/project-form-header";
import { BasicsSection, DetailsSection } from "./form/project-form-sections";
import { SaveBar } from "./form/save-bar";
import { StatusField } from "./form/status-field";
import { TiersEditor } from "./form/tiers-editor";

type ProjectFormProps = {
  mode: "create" | "edit";
  project?: ProjectFormProject;
  defaultTiers?: TierValue[];
  publicUrl: string;
  actionData?: FormResult;
};

const SAVE_FAILED = "Failed to save project";

/**
 * The project form, create and edit.
 * - Create posts a plain form; the action redirects to the edit screen with a flash toast.
 * - Edit posts `intent=save` through a fetcher and toasts the answer.
 * - Both run the shared schema through `useSchemaForm`: messages go under the fields (paths such as
 *   `tiers.1.rangeMax` map to the field on screen) and the first one gets focus. Lists travel as JSON in hidden inputs.
 */
export function ProjectForm({ mode, project, defaultTiers, publicUrl, actionData }: ProjectFormProps) {
  const isEdit = mode === "edit";
  const fetcher = useFetcher<FormResult>();
  const navigation = useNavigation();
  const busy = isEdit ? fetcher.state !== "idle" : navigation.state !== "idle" && navigation.formData !== undefined;

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
  const { form, field, formError, clearErrors } = useSchemaForm(projectFormSchema, {
    id: PROJECT_FORM_ID,
    lastResult: serverResult,
    busy,
    read: readProjectForm,
    slotOf: (path) => errorSlot(path, kept),
    onResult: (result) => (result.ok ? toast.success(result.message) : toast.error(result.formError || SAVE_FAILED)),
  });
  const reshaped = (list: string) => () => clearErrors((slot) => slot === list || slot.startsWith(`${list}.`));

  const FormElement = isEdit ? fetcher.Form : Form;

  return (
    <main className="mx-auto max-w-3xl px-4 pb-10 pt-5 sm:pt-8">
      <ProjectFormHeader isEdit={isEdit} project={project} />

      <FormElement
        method="post"
        action={isEdit && project ? `/project/${project.id}/edit` : undefined}
        {...form}
        aria-label={isEdit ? "Edit project" : "Create project"}
        className="mt-6 space-y-4 sm:space-y-5 [&_input]:scroll-mt-24 [&_input]:scroll-mb-28 [&_textarea]:scroll-mt-24 [&_textarea]:scroll-mb-28"
      >
        {isEdit ? <input type="hidden" name="intent" value="save" /> : null}
        <input type="hidden" name="metrics" value={metricsJson(metrics)} />
        <input type="hidden" name="problemPoints" value={pointsJson(problemPoints)} />
        <input type="hidden" name="solutionPoints" value={pointsJson(solutionPoints)} />
        <input type="hidden" name="tiers" value={tiersJson(tiers)} />

        <BasicsSection
          isEdit={isEdit}
          project={project}
          title={title}
          setTitle={setTitle}
          slug={slug}
          setSlug={setSlug}
          slugEdited={slugEdited}
          setSlugEdited={setSlugEdited}
          field={field}
          publicUrl={publicUrl}
        />

        <DetailsSection project={project} field={field} />

        <FormSection id="section-metrics" title="Traction Metrics" description="Numbers that show momentum, shown as chips under your one-liner.">
          <MetricsEditor rows={metrics} onChange={setMetrics} onReshape={reshaped("metrics")} field={field} newKey={newKey} />
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
              field={field}
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
              field={field}
              newKey={newKey}
            />
          </div>
        </FormSection>

        <FormSection id="section-tiers" title="Signal Tiers" description={`The ranges visitors can signal interest in, in the order shown on your pitch page. Leave Max empty for an open-ended tier; up to ${LIMITS.perks} perks each.`}>
          <TiersEditor rows={tiers} onChange={setTiers} onReshape={reshaped("tiers")} field={field} newKey={newKey} />
        </FormSection>

        <StatusField defaultValue={project?.status === "published" ? "published" : "draft"} field={field("status")} />

        <FormAlert message={formError} />

        <SaveBar isEdit={isEdit} busy={busy} />
      </FormElement>

    </main>
  );
}
