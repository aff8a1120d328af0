import type { To } from "react-router";
import { LiveBadge } from "~/components/ui/live-badge";
import type { PitchPage } from "~/modules/pitch/pitch-page.server";
import { IntroBlurb } from "./intro-form";
import { PhoneDialog } from "./phone-dialog";
import { IntroDialog, SignalDialog, SubscribeDialog } from "./visitor-dialogs";

const ignore = () => undefined;

/**
 * The shared anonymous page ships no React (decision 13): each dialog is in the document as inert HTML,
 * exactly as the server renders it for `?dialog=…`, for the enhancement module to open without a page load.
 */
export function DialogTemplates({ page, closeTo }: { page: PitchPage; closeTo: To }) {
  const title = page.project.title;
  return (
    <>
      <template data-pitch-dialog="intro">
        <IntroDialog open projectTitle={title} closeTo={closeTo} onClose={ignore} actionData={undefined} />
      </template>
      <template data-pitch-dialog="subscribe">
        <SubscribeDialog open projectTitle={title} closeTo={closeTo} onClose={ignore} actionData={undefined} />
      </template>
      <template data-pitch-dialog="signal">
        <SignalDialog open projectTitle={title} tiers={page.tiers} closeTo={closeTo} onClose={ignore} actionData={undefined} />
      </template>
      <template data-pitch-dialog="phone">
        <PhoneDialog open closeTo={closeTo} onClose={ignore} forScript />
      </template>
      <template data-pitch-template="live-badge">
        <LiveBadge />
      </template>
      <template data-pitch-template="intro-blurb">
        <IntroBlurb blurb="" subject="" closeTo={closeTo} onClose={ignore} copyWithoutReact />
      </template>
    </>
  );
}
