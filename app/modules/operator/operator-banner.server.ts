import type { ProjectRole } from "~/modules/access/roles";
import { mailWarningForFounders } from "~/modules/mail/mail-warning.server";
import { publicUrlWarning } from "~/modules/qr/public-url";
import type { AppServices } from "~/services.server";
import type { OperatorBanner, OperatorWarningKind } from "./operator-banner";

/** The browser's dismissals: `kind.until` pairs, each hiding that warning until the instant (ms) it names. */
export const BANNER_DISMISSED_COOKIE = "operator_banner_dismissed";
export const BANNER_DISMISS_MS = 86_400_000;

function readDismissals(cookieHeader: string | null, now: number): Map<OperatorWarningKind, number> {
  const raw = cookieHeader
    ?.split(/;\s*/)
    .find((pair) => pair.startsWith(`${BANNER_DISMISSED_COOKIE}=`))
    ?.slice(BANNER_DISMISSED_COOKIE.length + 1);
  const dismissals = new Map<OperatorWarningKind, number>();
  for (const entry of decodeURIComponent(raw ?? "").split(",")) {
    const [kind, until] = entry.split(".");
    if ((kind === "mail" || kind === "qr-address") && Number(until) > now) dismissals.set(kind, Number(until));
  }
  return dismissals;
}

/**
 * The banner about the operator's set-up a founder screen shows (decision 88): to the project's owner only, one
 * banner holding each warning the screen is about, none while the screen opens on an alert's lead (`?lead=`), and
 * without the warnings this browser dismissed in the last day.
 */
export function operatorBannerFor(
  services: Pick<AppServices, "config" | "mail">,
  request: Request,
  url: URL,
  role: ProjectRole | null,
  kinds: readonly OperatorWarningKind[],
  now = Date.now(),
): OperatorBanner | null {
  if (role !== "owner" || url.searchParams.has("lead")) return null;
  const dismissed = readDismissals(request.headers.get("cookie"), now);
  const warnings = kinds
    .filter((kind) => !dismissed.has(kind))
    .map((kind) => {
      const warning = kind === "mail" ? mailWarningForFounders(services) : publicUrlWarning(services.config.publicUrl);
      return warning && { kind, title: warning.title, message: warning.message };
    })
    .filter((warning) => warning !== null);
  return warnings.length ? { warnings, returnTo: `${url.pathname}${url.search}` } : null;
}

/** The Set-Cookie value hiding `kinds` for a day, beside the dismissals still running. */
export function dismissBannerCookie(request: Request, kinds: readonly OperatorWarningKind[], secure: boolean, now = Date.now()): string {
  const dismissals = readDismissals(request.headers.get("cookie"), now);
  for (const kind of kinds) dismissals.set(kind, now + BANNER_DISMISS_MS);
  const value = [...dismissals].map(([kind, until]) => `${kind}.${until}`).join(",");
  return `${BANNER_DISMISSED_COOKIE}=${encodeURIComponent(value)}; Path=/; Max-Age=${BANNER_DISMISS_MS / 1000}; SameSite=Lax; HttpOnly${secure ? "; Secure" : ""}`;
}
