import { createElement } from "react";
import type { To } from "react-router";
import { LiveBadge } from "~/components/ui/live-badge";
import type { PitchPage } from "~/modules/pitch/pitch-page.server";
import { IntroBlurb } from "./intro-form";
import { PhoneDialog } from "./phone-dialog";
import { IntroDialog, SignalDialog, SubscribeDialog } from "./visitor-dialogs";

const ignore = () => undefined;

/** The element the page cache cuts out of the document: a name of its own, so its end is the first closing tag. */
export const DIALOGS_ELEMENT = "pitch-dialogs";

/**
 * The shared anonymous page ships no React (decision 13): each dialog is inert HTML, exactly as the server renders
 * it for `?dialog=…`, for the enhancement module to open without a page load. The page cache takes this element
 * out of the document and serves it at `/pitch/{slug}/dialogs` (decision 51), fetched when a visitor heads for one.
 */
export function DialogTemplates({ page, closeTo }: { page: PitchPage; closeTo: To }) {
  const title = page.project.title;
  return createElement(
    DIALOGS_ELEMENT,
    { hidden: true },
    <>
      <template data-pitch-dialog="intro">
        <IntroDialog open projectTitle={title} question={page.question} closeTo={closeTo} onClose={ignore} actionData={undefined} />
      </template>
      <template data-pitch-dialog="subscribe">
        <SubscribeDialog open projectTitle={title} closeTo={closeTo} onClose={ignore} actionData={undefined} />
      </template>
      <template data-pitch-dialog="signal">
        <SignalDialog open projectTitle={title} tiers={page.tiers} question={page.question} closeTo={closeTo} onClose={ignore} actionData={undefined} />
      </template>
      <template data-pitch-dialog="phone">
        <PhoneDialog open closeTo={closeTo} onClose={ignore} forScript />
      </template>
      <template data-pitch-template="intro-blurb">
        <IntroBlurb blurb="" subject="" closeTo={closeTo} onClose={ignore} copyWithoutReact />
      </template>
    </>,
  );
}

/** The wall's Live badge, shown by the module while its stream is open: in the document, as the stream opens at load. */
export function LiveBadgeTemplate() {
  return (
    <template data-pitch-template="live-badge">
      <LiveBadge />
    </template>
  );
}
