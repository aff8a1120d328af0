import { useEffect } from "react";
import { PitchToasts } from "~/components/pitch/toast-templates";
import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useNavigation,
  useMatches,
  useRouteLoaderData,
  type ShouldRevalidateFunctionArgs,
  type UIMatch,
} from "react-router";
import { toast as showToast, Toaster } from "sonner";
import { ConfirmEmailBanner, showsConfirmBanner } from "~/components/founder/confirm-email-banner";
import { ProjectGridSkeleton } from "~/components/founder/project-grid-skeleton";
import { SiteHeader } from "~/components/site-header";
import { browserSettings } from "~/config.server";
import { getSessionUser } from "~/modules/auth/session.server";
import { clearFlash, readFlash } from "~/modules/flash/flash.server";
import { SITE_MANIFEST_PATH, THEME_COLOR, type InstallTarget } from "~/modules/icons/web-manifest";
import { deckReaderScript, enhanceScript, inlineFavicon, pitchStyles, qrCodeScript, savedListScript, savedStyles, serviceWorkerScript } from "~/modules/pitch/pitch-client-assets.server";
import { SAVED_LIST_PATH } from "~/modules/saved/saved-list";
import { PITCH_OFFLINE_CACHE } from "~/pitch-client/offline-cache";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/root";
import "./app.css";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { auth, flashCookie } = context.services;
  const [user, flash] = await Promise.all([getSessionUser(auth, request), readFlash(flashCookie, request)]);
  const headers = flash ? { "Set-Cookie": await clearFlash(flashCookie) } : undefined;
  return data(
    {
      user: user ? { email: user.email, name: user.name, timeZone: user.timeZone, emailConfirmed: user.emailConfirmed } : null,
      toast: flash?.toast ? { ...flash.toast, id: crypto.randomUUID() } : null,
      introBlurb: flash?.introBlurb ?? null,
      cspNonce: context.cspNonce,
      operator: browserSettings(context.services.config),
      // The shared anonymous document ships the pitch page's enhancement module instead of React (decision 13);
      // so does `/saved`, the same for everyone too (its list is in the browser) and kept for offline use.
      pitchClient: context.sharedDocument
        ? pitchClientAssets(pitchStyles)
        : new URL(request.url).pathname === SAVED_LIST_PATH
          ? pitchClientAssets(savedStyles)
          : null,
    },
    { headers },
  );
}

/** The enhancement module's files, with the page's own stylesheet (decision 46: `/saved` has a few more classes). */
function pitchClientAssets(styles: string) {
  return { script: enhanceScript, styles, qrCode: qrCodeScript, deckControls: deckReaderScript, savedList: savedListScript, serviceWorker: serviceWorkerScript, favicon: inlineFavicon };
}

/** Opening or closing a pitch page dialog (`?dialog=`, `?sent=`) changes nothing the root loader reads. */
export function shouldRevalidate({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formMethod || currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate;
  const withoutDialog = (url: URL) => {
    const params = new URLSearchParams(url.search);
    params.delete("dialog");
    params.delete("sent");
    return params.toString();
  };
  return withoutDialog(currentUrl) === withoutDialog(nextUrl) ? false : defaultShouldRevalidate;
}

const FAVICON_PATH = "/favicon.svg";

const SITE_ICONS = [
  { rel: "icon", href: FAVICON_PATH, type: "image/svg+xml" },
  { rel: "icon", href: "/icons/favicon-32.png", type: "image/png", sizes: "32x32" },
  { rel: "apple-touch-icon", href: "/apple-touch-icon.png", sizes: "180x180" },
];

export const links: Route.LinksFunction = () => SITE_ICONS;

export const meta: Route.MetaFunction = () => [
  { title: `${PRODUCT_NAME}: QR-first pitch pages for founders` },
  { name: "description", content: "Turn every QR scan at your booth into a meeting, an intro or a signal of interest." },
];

export function Layout({ children }: { children: React.ReactNode }) {
  const rootData = useRouteLoaderData<typeof loader>("root");
  const nonce = rootData?.cspNonce;
  const matches = useMatches();
  const { pathname, search } = useLocation();
  const install = installTarget(matches);
  const unconfirmed = rootData?.user && !rootData.user.emailConfirmed && showsConfirmBanner(pathname, search) ? rootData.user.email : null;
  const pitchClient = rootData?.pitchClient;
  if (pitchClient) {
    return (
      <html lang="en" data-service-worker={pitchClient.serviceWorker} data-qr-code={pitchClient.qrCode} data-deck-controls={pitchClient.deckControls} data-saved-list={pitchClient.savedList}>
        <head>
          <meta charSet="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
          <meta name="theme-color" content={THEME_COLOR} />
          <Meta />
          {SITE_ICONS.map((icon) => (
            <link key={icon.href} {...icon} href={icon.href === FAVICON_PATH ? pitchClient.favicon : icon.href} />
          ))}
          <style dangerouslySetInnerHTML={{ __html: pitchClient.styles }} />
          <link rel="manifest" href={install.manifest} />
          <meta name="apple-mobile-web-app-title" content={install.name} />
        </head>
        <body className="min-h-dvh">
          <SiteHeader user={null} />
          {children}
          <PitchToasts />
          {/* The page reads and works before the module, so it is fetched only once the page is painted. */}
          <script nonce={nonce || undefined} dangerouslySetInnerHTML={{ __html: importAfterFirstPaint(pitchClient.script) }} />
        </body>
      </html>
    );
  }
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="theme-color" content={THEME_COLOR} />
        <Meta />
        <Links />
        <link rel="manifest" href={install.manifest} />
        <meta name="apple-mobile-web-app-title" content={install.name} />
      </head>
      <body className="min-h-dvh">
        {isFullScreen(matches) ? null : <SiteHeader user={rootData?.user ?? null} />}
        {unconfirmed && !isFullScreen(matches) ? <ConfirmEmailBanner email={unconfirmed} /> : null}
        {children}
        <Toaster position="top-center" richColors closeButton />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/**
 * The shared document's only script (decision 45): it imports the enhancement module once the browser reports
 * the first paint, so neither the module's request nor its evaluation stands between the visitor and the first
 * paint (a browser without paint timing imports it on `load`). Inline, it is allowed by its hash on a cached
 * page (the page cache reads the hashes) and by the nonce on a rendered one.
 */
function importAfterFirstPaint(moduleUrl: string): string {
  const load = `()=>import(${JSON.stringify(moduleUrl)})`;
  return `{const load=${load};PerformanceObserver.supportedEntryTypes?.includes("paint")?new PerformanceObserver((_,o)=>{o.disconnect();load()}).observe({type:"paint",buffered:true}):addEventListener("load",load)}`;
}

/** A route that is the whole screen (the booth) says so with `handle.fullScreen`: no site header. */
function isFullScreen(matches: UIMatch[]): boolean {
  return matches.some((match) => (match.handle as { fullScreen?: boolean } | undefined)?.fullScreen === true);
}

/**
 * The manifest and home-screen name of the page (decision 11): a route may name its own through
 * `handle.install` (a published pitch page does), else the product's.
 */
function installTarget(matches: UIMatch[]): InstallTarget {
  for (const match of [...matches].reverse()) {
    const handle = match.handle as { install?: (data: unknown) => InstallTarget | null } | undefined;
    const target = handle?.install?.(match.data);
    if (target) return target;
  }
  return { manifest: SITE_MANIFEST_PATH, name: PRODUCT_NAME };
}

export default function App({ loaderData }: Route.ComponentProps) {
  const toast = loaderData.toast;
  const navigation = useNavigation();
  const location = useLocation();
  // My Projects shows skeleton cards while it loads, also when arriving from another page.
  const showProjectsSkeleton =
    navigation.state === "loading" && navigation.location.pathname === "/my-projects" && location.pathname !== "/my-projects";
  const signedIn = loaderData.user !== null;
  useEffect(() => {
    // Someone signed in (a founder, say) is never shown the anonymous pitch page's offline copy (decision 13).
    if (signedIn && typeof caches !== "undefined") caches.delete(PITCH_OFFLINE_CACHE).catch(() => undefined);
  }, [signedIn]);
  useEffect(() => {
    if (!toast) return;
    const show = toast.type === "error" ? showToast.error : toast.type === "success" ? showToast.success : showToast;
    show(toast.message, { id: toast.id, description: toast.description });
  }, [toast]);
  return (
    <>
      {toast ? (
        <noscript>
          <p role="status" className="mx-auto max-w-5xl px-4 pt-4 text-sm font-medium text-brand-700">
            {toast.message}
          </p>
        </noscript>
      ) : null}
      {showProjectsSkeleton ? (
        <main className="mx-auto max-w-6xl px-4 pb-16 pt-8 sm:pt-10">
          <ProjectGridSkeleton />
        </main>
      ) : (
        <Outlet />
      )}
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <main className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="text-2xl font-bold">{status === 404 ? "Oops! Page not found" : "Something went wrong"}</h1>
      <p className="mt-3 text-slate-600">
        {status === 404 ? "The page you are looking for does not exist." : "Please try again in a moment."}
      </p>
      <a href="/" className="mt-6 inline-block font-medium text-brand-600 underline">
        Return to Home
      </a>
    </main>
  );
}
