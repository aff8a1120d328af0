import { WORKSPACE_INSTALL } from "~/modules/icons/web-manifest";
import { InviteFounderCard } from "~/components/founder/invite-founder-card";
import { ProjectGrid } from "~/components/founder/project-grid";
import { invitationFormSchema } from "~/modules/auth/auth-form";
import { TimeZoneCard, zoneLabel } from "~/components/founder/time-zone-card";
import { saveFounderTimeZone } from "~/modules/auth/founder-time-zone.server";
import { timeZoneSchema, type TimeZoneInput } from "~/modules/auth/time-zone-form";
import { timeZoneChoices } from "~/modules/time/founder-zone";
import { createInvitationLink } from "~/modules/auth/invitations.server";
import { requireSessionUser } from "~/modules/auth/session.server";
import { handleFormAction, intentOf } from "~/modules/forms/form-action.server";
import { readFormData } from "~/modules/http/form-body.server";
import { countNewLeads } from "~/modules/leads/inbox/lead-inbox.server";
import { listTeamProjects } from "~/modules/projects/founder-projects.server";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/my-projects";

export const meta: Route.MetaFunction = () => [{ title: `My Projects · ${PRODUCT_NAME}` }];

/** The founder workspace is an installable app of its own (decision 56). */
export const handle = { install: () => WORKSPACE_INSTALL };

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const user = await requireSessionUser(context.services.auth, request, url);
  const { db } = context.services.database;
  const [projects, newLeads] = await Promise.all([listTeamProjects(db, user.id), countNewLeads(db, user.id)]);
  const now = Date.now();
  return {
    projects,
    newLeads,
    invitations: context.services.config.signup === "invite",
    clock: { timeZone: user.timeZone, chosen: user.timeZoneSet, choices: zoneChoices(user.timeZone, now), now: new Date(now).toISOString() },
  };
}

/** Every zone with its offset now, the founder's own first when the list spells it differently. */
function zoneChoices(current: string, now: number) {
  const zones = timeZoneChoices();
  return (zones.includes(current) ? zones : [current, ...zones]).map((zone) => ({ zone, label: zoneLabel(zone, now) }));
}

/** 'Invite a founder' (SIGNUP=invite): a link for one account, shown once; 'Your time zone' (decision 53). */
export async function action({ request, url, context }: Route.ActionArgs) {
  const { auth, config, database } = context.services;
  const user = await requireSessionUser(auth, request, url);
  const form = await readFormData(request);
  return handleFormAction<"invite" | "time-zone", { invitationUrl?: string }>({
    form,
    logger: context.logger,
    intent: intentOf(form, ["invite", "time-zone"]),
    intents: {
      invite: { schema: invitationFormSchema, run: () => createInvitationLink(database.db, config, user.id) },
      "time-zone": { schema: timeZoneSchema, run: (input: TimeZoneInput) => saveFounderTimeZone(database.db, user.id, input) },
    },
  });
}

export default function MyProjects({ loaderData }: Route.ComponentProps) {
  const { clock } = loaderData;
  return (
    <ProjectGrid
      projects={loaderData.projects}
      newLeads={loaderData.newLeads}
      after={
        <>
          <TimeZoneCard timeZone={clock.timeZone} chosen={clock.chosen} choices={clock.choices} now={clock.now} />
          {loaderData.invitations ? <InviteFounderCard /> : null}
        </>
      }
    />
  );
}
