import { useEffect } from "react";
import type { PitchPage } from "~/modules/pitch/pitch-page.server";
import type { VisitorActionResult } from "~/modules/contacts/visitor-form-rules";
import { useClock } from "~/components/ui/use-clock";
import { DialogTemplates, LiveBadgeTemplate } from "./dialog-templates";
import { PitchToasts } from "./toast-templates";
import { IntroDialog, SignalDialog, SubscribeDialog } from "./visitor-dialogs";
import { MobileActionBar } from "./pitch-actions";
import { DraftBanner, Hero, LatestUpdate, LegalFooter, ProblemSolution, StatsStrip } from "./pitch-sections";
import { DeckSection } from "./deck-section";
import { PhoneDialog } from "./phone-dialog";
import { RecognitionWall } from "./recognition-wall";
import { settleArrival } from "~/browser/arrival";
import { useFollowing } from "./use-following";
import { useLiveWall } from "./use-live-wall";
import { usePitchDialogs } from "./use-pitch-dialogs";

type PitchPageViewProps = {
  page: PitchPage;
  actionData?: VisitorActionResult;
  /** The shared anonymous document: no React in the browser, the enhancement module instead (decision 13). */
  enhanced?: boolean;
};

/** The public pitch page, in the spec's order. */
export function PitchPageView({ page, actionData, enhanced }: PitchPageViewProps) {
  // Moving from one pitch to another keeps the route mounted: a key starts the wall and dialogs afresh.
  return <PitchPageContent key={page.project.id} page={page} actionData={actionData} enhanced={enhanced} />;
}

/**
 * Scans are counted at the door only (decision 47): the page itself reports nothing, in either renderer.
 */
function PitchPageContent({ page, actionData, enhanced }: PitchPageViewProps) {
  const { project } = page;
  const dialogs = usePitchDialogs(actionData);
  const wall = useLiveWall(project.id, page.wall, page.stats);
  const now = useClock();
  // Not following when rendered on the server; the anonymous document's script shows the device's state (decision 13).
  const following = useFollowing(project.slug);
  useEffect(() => {
    // Counted if the door did not see it (served ahead of the tap); the history entry drops `?qr=` as it is left.
    settleArrival(project.id);
  }, [project.id]);

  return (
    <div data-pitch-page={project.slug} data-project-id={project.id} data-dialogs={enhanced ? `/pitch/${encodeURIComponent(project.slug)}/dialogs` : undefined}>
      {project.isDraft ? <DraftBanner /> : null}
      <main>
        <Hero project={project} dialogs={dialogs} following={following} />
        <div className="space-y-6 pt-6 md:space-y-8 md:pt-0">
          <StatsStrip
            signals={wall.signals}
            supporters={wall.entries.length + wall.hiddenSupporters}
            metrics={project.metrics.length}
            lastShippedAt={project.lastShippedAt}
            now={now}
          />
          <LatestUpdate update={page.latestUpdate} />
          <ProblemSolution problems={project.problemPoints} solutions={project.solutionPoints} />
          <DeckSection project={project} dialogs={dialogs} enhanced={enhanced} />
          <RecognitionWall entries={wall.entries} hiddenSupporters={wall.hiddenSupporters} status={wall.status} now={now} dialogs={dialogs} />
        </div>
      </main>
      <LegalFooter />

      <IntroDialog
        open={dialogs.open === "intro"}
        projectTitle={project.title}
        question={page.question}
        closeTo={dialogs.closeTo}
        onClose={dialogs.close}
        actionData={actionData}
      />
      <SubscribeDialog open={dialogs.open === "subscribe"} projectTitle={project.title} closeTo={dialogs.closeTo} onClose={dialogs.close} actionData={actionData} />
      <SignalDialog
        open={dialogs.open === "signal"}
        projectTitle={project.title}
        tiers={page.tiers}
        question={page.question}
        closeTo={dialogs.closeTo}
        onClose={dialogs.close}
        actionData={actionData}
      />
      <PhoneDialog open={dialogs.open === "phone"} closeTo={dialogs.closeTo} onClose={dialogs.close} />

      <MobileActionBar dialogs={dialogs} calendlyUrl={project.calendlyUrl} following={following} />
      {/* The anonymous document has its toasts in the root layout, with /saved's. */}
      {enhanced ? (
        <>
          <LiveBadgeTemplate />
          <DialogTemplates page={page} closeTo={dialogs.closeTo} />
        </>
      ) : (
        <PitchToasts />
      )}
    </div>
  );
}
