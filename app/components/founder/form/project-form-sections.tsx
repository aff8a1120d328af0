import { AlertTriangle } from "lucide-react";
import { FormSection } from "~/components/ui/card";
import { TextAreaField, TextField } from "~/components/ui/form-fields";
import { maxLengthOf } from "~/modules/forms/constraints";
import { deriveSlug, projectFormSchema } from "~/modules/projects/project-form";
import type { ProjectFormProject } from "./form-state";
import { fieldDomId } from "./form-errors";

type Errors = Record<string, string>;

type BasicsSectionProps = {
  isEdit: boolean;
  project?: ProjectFormProject;
  title: string;
  setTitle: (title: string) => void;
  slug: string;
  setSlug: (slug: string) => void;
  slugEdited: boolean;
  setSlugEdited: (edited: boolean) => void;
  publicUrl: string;
  errors: Errors;
};

/** Title, slug (with the address it gives and the warning about printed codes) and one-liner. */
export function BasicsSection({ isEdit, project, title, setTitle, slug, setSlug, slugEdited, setSlugEdited, publicUrl, errors }: BasicsSectionProps) {
  const slugChanged = isEdit && project !== undefined && slug.trim() !== project.slug;
  const liveUrl = `${publicUrl}/pitch/${slug.trim() || "your-project"}`;
  return (
    <FormSection id="section-basics" title="Basics" description="What visitors see first when they scan your code.">
      <TextField
        id={fieldDomId("title")}
        name="title"
        label="Project Title"
        required
        maxLength={maxLengthOf(projectFormSchema, "title")}
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
        maxLength={maxLengthOf(projectFormSchema, "slug")}
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
        maxLength={maxLengthOf(projectFormSchema, "oneLiner")}
        placeholder="e.g. Warehouse robots that pay for themselves in 6 months"
        defaultValue={project?.oneLiner ?? ""}
        data-error-slot="oneLiner"
        error={errors.oneLiner}
      />
    </FormSection>
  );
}

/** Video, summary, deck and booking links. */
export function DetailsSection({ project, errors }: { project?: ProjectFormProject; errors: Errors }) {
  return (
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
        maxLength={maxLengthOf(projectFormSchema, "summary")}
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
  );
}
