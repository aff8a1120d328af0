import { redirect } from "react-router";
import { isDomainError } from "~/modules/errors.server";
import { serializeFlash, type FlashCookie } from "~/modules/flash/flash.server";

/**
 * For project pages: a project that is missing or someone else's sends the founder to /my-projects with
 * SPEC.md's 'Project not found or access denied'; a page the member's role does not open (decision 61), with the
 * message that names their role. Other errors pass through.
 */
export async function orRedirectToMyProjects<T>(flashCookie: FlashCookie, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isDomainError(error) && (error.code === "not_found" || error.code === "forbidden")) {
      throw redirect("/my-projects", {
        headers: { "Set-Cookie": await serializeFlash(flashCookie, { toast: { type: "error", message: error.message } }) },
      });
    }
    throw error;
  }
}
