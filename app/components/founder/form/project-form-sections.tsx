import { Info } from "lucide-react";
import { FormSection } from "~/components/ui/card";
import { TextAreaField, TextField } from "~/components/ui/form-fields";
import type { FieldOf, FieldProps } from "~/components/ui/use-schema-form";
import { deriveSlug } from "~/modules/projects/project-form";
import type { ProjectFormProject } from "./form-state";

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
  field: FieldOf;
};

/** Title, slug (with the address it gives and the warning about printed codes) and one-liner. */
export function BasicsSection({ isEdit, project, title, setTitle, slug, setSlug, slugEdited, setSlugEdited, publicUrl, field }: BasicsSectionProps) {
  const slugChanged = isEdit && project !== undefined && slug.trim() !== project.slug;
  const liveUrl = `${publicUrl}/pitch/${slug.trim() || "your-project"}`;
  return (
    <FormSection id="section-basics" title="Basics" description="What visitors see first when they scan your code.">
      <TextField
        {...field("title")}
        label="Project Title"
        autoComplete="off"
        placeholder="e.g. Acme Robotics"
        value={title}
        onChange={(event) => {
          setTitle(event.target.value);
          if (!slugEdited) setSlug(deriveSlug(event.target.value));
        }}
      />
      <TextField
        {...field("slug")}
        label="URL Slug"
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
        hint={
          <>
            Your project will live at <span className="break-all font-medium text-slate-700">{liveUrl}</span>
            {isEdit && project?.slug && (project.qrCodeCount ?? 0) > 0 ? (
              <span
                data-slug-redirect-note
                className={`mt-2 flex items-start gap-1.5 rounded-lg px-2.5 py-2 text-xs ${
                  slugChanged ? "bg-sky-100 text-sky-900 ring-1 ring-sky-300" : "bg-sky-50 text-sky-800"
                }`}
              >
                <Info aria-hidden className="mt-px size-3.5 shrink-0" />
                <span>
                  {slugChanged ? (
                    <>
                      <strong className="font-semibold">Printed codes keep working:</strong> your {project.qrCodeCount === 1 ? "QR code" : `${project.qrCodeCount} QR codes`}{" "}
                      point to <span className="break-all font-medium">/pitch/{project.slug}</span>, which will redirect to the new address and still count each
                      scan.
                    </>
                  ) : (
                    "Printed QR codes keep working if you change the slug: the old address redirects to the new one."
                  )}
                </span>
              </span>
            ) : null}
          </>
        }
      />
      <TextField
        {...field("oneLiner")}
        label="One-Liner"
        placeholder="e.g. Warehouse robots that pay for themselves in 6 months"
        defaultValue={project?.oneLiner ?? ""}
      />
    </FormSection>
  );
}

/** Video, summary, deck and booking links. */
export function DetailsSection({ project, field }: { project?: ProjectFormProject; field: FieldOf }) {
  return (
    <FormSection id="section-details" title="Pitch details" description="Optional, but a short video and a deck turn scans into meetings.">
      <LinkField field={field("videoUrl")} label="Video URL (YouTube, Vimeo, Loom)" placeholder="https://www.youtube.com/watch?v=…" value={project?.videoUrl} />
      <TextAreaField
        {...field("summary")}
        label="Project Summary"
        rows={5}
        placeholder="What you are building, for whom, and why now."
        defaultValue={project?.summary ?? ""}
      />
      <div className="grid gap-5 sm:grid-cols-2 sm:gap-4">
        <LinkField field={field("deckUrl")} label="Deck URL" placeholder="https://…" value={project?.deckUrl} />
        <LinkField field={field("calendlyUrl")} label="Calendly/Booking URL" placeholder="https://calendly.com/…" value={project?.calendlyUrl} />
      </div>
    </FormSection>
  );
}

/** One of the pitch's links (video, deck, booking): a URL field, empty when the project has none. */
function LinkField({ field, label, placeholder, value }: { field: FieldProps; label: string; placeholder: string; value: string | undefined }) {
  return <TextField {...field} type="url" inputMode="url" label={label} placeholder={placeholder} defaultValue={value ?? ""} />;
}
