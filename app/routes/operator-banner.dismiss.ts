import { redirect } from "react-router";
import { requireSessionUser } from "~/modules/auth/session.server";
import { safeReturnTo } from "~/modules/auth/return-to";
import { handleFormAction } from "~/modules/forms/form-action.server";
import { readFormData } from "~/modules/http/form-body.server";
import { dismissBannerSchema, type DismissBannerInput } from "~/modules/operator/operator-banner";
import { dismissBannerCookie } from "~/modules/operator/operator-banner.server";
import type { Route } from "./+types/operator-banner.dismiss";

/** 'Dismiss' on a founder screen's operator banner: hides its warnings in this browser for a day, then back to the screen. */
export async function action({ request, url, context }: Route.ActionArgs) {
  const { auth, config } = context.services;
  await requireSessionUser(auth, request, url);
  const form = await readFormData(request);
  return handleFormAction({
    form,
    logger: context.logger,
    intent: "dismiss",
    intents: {
      dismiss: {
        schema: dismissBannerSchema,
        read: (posted) => ({ kinds: posted.getAll("kind"), returnTo: String(posted.get("returnTo") ?? "") }),
        run: async (input: DismissBannerInput) => {
          const cookie = dismissBannerCookie(request, input.kinds, config.publicUrl.startsWith("https://"));
          return redirect(safeReturnTo(input.returnTo, "/dashboard"), { headers: { "Set-Cookie": cookie } });
        },
      },
    },
  });
}

export function loader() {
  return redirect("/dashboard");
}
