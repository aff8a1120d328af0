import type { FlashCookie } from "~/modules/flash/flash.server";
import { orErrorPage } from "~/modules/http/domain-errors.server";

/**
 * For project pages: a project that is missing or someone else's sends the founder to /my-projects with
 * 'Project not found or access denied'; a page the member's role does not open (decision 61), with the
 * message that names their role. Other errors pass through.
 */
export function orRedirectToMyProjects<T>(flashCookie: FlashCookie, load: () => Promise<T>): Promise<T> {
  return orErrorPage(load, { codes: ["not_found", "forbidden"], as: "toast", to: "/my-projects", flashCookie });
}
