/**
 * The pitch page's three forms and their validation (zod): one chunk, loaded only when a visitor shows
 * interest in a form (see `lazy-forms.tsx`), so the page's first load stays small.
 */
export { IntroForm } from "./intro-form";
export { SignalForm } from "./signal-form";
export { SubscribeForm } from "./subscribe-form";
