import { Copy, Crown, LogOut, Mail, UserPlus, Users } from "lucide-react";
import { useRef } from "react";
import { useFetcher } from "react-router";
import { toast } from "sonner";
import { primaryButtonClass, secondaryButtonClass } from "~/components/ui/buttons";
import { SectionCard } from "~/components/ui/card";
import { FieldError, FormAlert, TextField, inputClass, RecordIdField } from "~/components/ui/form-fields";
import { useFounderTimeZone } from "~/components/ui/use-clock";
import { useSchemaForm } from "~/components/ui/use-schema-form";
import { useSettledResult } from "~/components/ui/use-settled-result";
import { COPY_FAILED_MESSAGE, copyText } from "~/browser/copy-text";
import { formatFounderDate } from "~/modules/time/founder-dates";
import type { FormResult } from "~/modules/forms/form-result";
import { MEMBER_ROLES, ROLE_DESCRIPTIONS, ROLE_LABELS, roleAllows } from "~/modules/access/roles";
import { teamInvitationSchema } from "~/modules/team/team-forms";
import type { PendingInvitation, TeamMember, TeamPage } from "~/modules/team/team.server";
import { ProjectSectionPage } from "./project-section-nav";
import { SetupWarningBanner } from "./setup-warning-banner";
import type { OperatorBanner } from "~/modules/operator/operator-banner";
import { TeamSetupsView } from "./team-setups-view";

/** Shows each settled answer of a row's form as a toast: the change made, or why it was refused. */
function useToastResult(fetcher: ReturnType<typeof useFetcher<FormResult>>) {
  useSettledResult(fetcher.data, fetcher.state === "idle", (result) => {
    if (result.ok) toast.success(result.message);
    else toast.error(result.formError);
  });
}

/** One fetcher for every row's Remove: the row goes with the member, so its answer is shown from the page. */
const REMOVE_FETCHER = "team-remove";

/**
 * The project's team (decision 61): everyone on it with their role. The owner invites by e-mail, withdraws open
 * invitations, changes roles, removes members and hands ownership to a co-founder; every other member can leave.
 * Roles that see the project's settings also see what is set up for it and who added it (decision 78).
 */
export function TeamView({ team, userId, setupBanner = null }: { team: TeamPage; userId: string; setupBanner?: OperatorBanner | null }) {
  const { project } = team;
  const isOwner = project.role === "owner";
  useToastResult(useFetcher<FormResult>({ key: REMOVE_FETCHER }));
  return (
    <ProjectSectionPage projectId={project.id} current="team" title={`Team: ${project.title}`} subtitle={`Your role: ${ROLE_LABELS[project.role]}`}>
      <SetupWarningBanner banner={setupBanner} />
      {isOwner ? <InviteCard projectId={project.id} invitations={team.invitations} /> : null}
      <SectionCard id="team-members-title" title="On the team" icon={Users} description="Each person signs in with their own account; what they can do follows their role.">
        <ul className="-mx-1 divide-y divide-slate-100">
          {team.members.map((member) => (
            <MemberRow key={member.userId} member={member} you={member.userId === userId} manage={isOwner && member.role !== "owner"} />
          ))}
        </ul>
      </SectionCard>
      {roleAllows(project.role, "settings") ? <TeamSetupsView setups={team.setups} /> : null}
      {isOwner ? null : <LeaveCard projectId={project.id} />}
    </ProjectSectionPage>
  );
}

function InviteCard({ projectId, invitations }: { projectId: string; invitations: PendingInvitation[] }) {
  const fetcher = useFetcher<FormResult>();
  const busy = fetcher.state !== "idle";
  const formElement = useRef<HTMLFormElement>(null);
  const { form, field, formError } = useSchemaForm(teamInvitationSchema, {
    id: "team-invite",
    lastResult: fetcher.data,
    busy,
    onResult: (result) => {
      if (!result.ok) return;
      toast.success(result.message);
      formElement.current?.reset();
    },
  });
  const role = field("role");
  return (
    <SectionCard id="team-invite-title" title="Invite to the team" icon={UserPlus} description="They get an e-mail with a link that works once, for 7 days, for that address only. You can also copy the link and send it yourself.">
      <fetcher.Form ref={formElement} method="post" action={`/project/${projectId}/team`} {...form} aria-label="Invite to the team" className="space-y-4">
        <input type="hidden" name="intent" value="invite" />
        <TextField {...field("email")} label="E-mail" type="email" autoComplete="off" inputMode="email" placeholder="ana@example.com" />
        <fieldset id={role.id} aria-describedby={role.error ? `${role.id}-error` : undefined}>
          <legend className="text-sm font-medium text-slate-800">Role</legend>
          <div className="mt-2 space-y-2">
            {MEMBER_ROLES.map((choice) => (
              <label key={choice} className="flex cursor-pointer items-start gap-3 rounded-xl border border-slate-200 p-3 has-[:checked]:border-brand-500 has-[:checked]:bg-brand-50/50">
                <input type="radio" name="role" value={choice} defaultChecked={choice === "staff"} data-error-slot="role" className="mt-0.5 size-5 accent-brand-600" />
                <span className="min-w-0">
                  <span className="block text-sm font-semibold text-slate-900">{ROLE_LABELS[choice]}</span>
                  <span className="block text-xs text-slate-600">{ROLE_DESCRIPTIONS[choice]}</span>
                </span>
              </label>
            ))}
          </div>
          <FieldError id={`${role.id}-error`} message={role.error} />
        </fieldset>
        <FormAlert message={formError} />
        <button type="submit" disabled={busy} className={`${primaryButtonClass} w-full sm:w-auto`}>
          <Mail aria-hidden className="size-4" />
          {busy ? "Sending..." : "Send invitation"}
        </button>
      </fetcher.Form>
      {invitations.length ? (
        <div className="mt-5">
          <h3 className="text-sm font-semibold text-slate-900">Waiting for an answer</h3>
          <ul className="mt-2 divide-y divide-slate-100">
            {invitations.map((invitation) => (
              <InvitationRow key={invitation.id} invitation={invitation} />
            ))}
          </ul>
        </div>
      ) : null}
    </SectionCard>
  );
}

type IssuedLink = FormResult<string, { joinUrl?: string }>;

function InvitationRow({ invitation }: { invitation: PendingInvitation }) {
  const fetcher = useFetcher<FormResult>();
  const linkFetcher = useFetcher<IssuedLink>();
  const timeZone = useFounderTimeZone();
  useToastResult(fetcher);
  // A fresh link each time (decision 85): copied as soon as it arrives, and shown to copy by hand if the copy fails.
  useSettledResult(linkFetcher.data, linkFetcher.state === "idle", (result) => {
    if (!result.ok) toast.error(result.formError);
    else if (result.joinUrl) void copyText(result.joinUrl).then((copied) => (copied ? toast.success(result.message) : toast.error(COPY_FAILED_MESSAGE)));
  });
  const issued = linkFetcher.data?.ok ? linkFetcher.data.joinUrl : undefined;
  return (
    <li className="py-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="min-w-0">
          <span className="block truncate text-sm font-medium text-slate-900">{invitation.email}</span>
          <span className="block text-xs text-slate-500">
            {ROLE_LABELS[invitation.role]} · link works until {formatFounderDate(invitation.expiresAt, timeZone)}
          </span>
        </span>
        <span className="flex flex-wrap gap-2">
          <linkFetcher.Form method="post">
            <input type="hidden" name="intent" value="link" />
            <RecordIdField name="invitationId" id={invitation.id} />
            <button type="submit" disabled={linkFetcher.state !== "idle"} className={`${secondaryButtonClass} py-2`}>
              <Copy aria-hidden className="size-4" />
              Copy invite link
            </button>
          </linkFetcher.Form>
          <fetcher.Form method="post">
            <input type="hidden" name="intent" value="revoke" />
            <RecordIdField name="invitationId" id={invitation.id} />
            <button type="submit" disabled={fetcher.state !== "idle"} className={`${secondaryButtonClass} py-2`}>
              Withdraw
            </button>
          </fetcher.Form>
        </span>
      </div>
      {issued ? (
        <div className="mt-2">
          <input
            readOnly
            aria-label={`Invite link for ${invitation.email}`}
            value={issued}
            onFocus={(event) => event.currentTarget.select()}
            className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 font-mono text-xs"
          />
          <p className="mt-1 text-xs text-slate-500">Only this link works now: one copied or mailed before it no longer does.</p>
        </div>
      ) : null}
    </li>
  );
}

function MemberRow({ member, you, manage }: { member: TeamMember; you: boolean; manage: boolean }) {
  const roleFetcher = useFetcher<FormResult>();
  const removeFetcher = useFetcher<FormResult>({ key: REMOVE_FETCHER });
  const transferFetcher = useFetcher<FormResult>();
  useToastResult(roleFetcher);
  useToastResult(transferFetcher);
  const who = member.name || member.email;
  return (
    <li className="px-1 py-3" aria-label={`${who}, ${ROLE_LABELS[member.role]}`}>
      <div className="flex items-start justify-between gap-3">
        <span className="min-w-0">
          <span className="block truncate text-sm font-semibold text-slate-900">
            {who}
            {you ? <span className="font-normal text-slate-500"> (you)</span> : null}
          </span>
          <span className="block truncate text-xs text-slate-500">{member.email}</span>
        </span>
        <span className="inline-flex shrink-0 items-center gap-1 rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-700">
          {member.role === "owner" ? <Crown aria-hidden className="size-3.5 text-amber-600" /> : null}
          {ROLE_LABELS[member.role]}
        </span>
      </div>
      {manage && member.role !== "owner" ? (
        <div className="mt-2 flex flex-wrap items-center gap-2">
          <roleFetcher.Form method="post" className="flex items-center gap-2">
            <input type="hidden" name="intent" value="role" />
            <RecordIdField name="userId" id={member.userId} />
            <label htmlFor={`role-${member.userId}`} className="sr-only">
              Role of {who}
            </label>
            <select id={`role-${member.userId}`} name="role" defaultValue={member.role} className={`${inputClass} mt-0 h-10 w-auto py-1`}>
              {MEMBER_ROLES.map((choice) => (
                <option key={choice} value={choice}>
                  {ROLE_LABELS[choice]}
                </option>
              ))}
            </select>
            <button type="submit" disabled={roleFetcher.state !== "idle"} className={`${secondaryButtonClass} py-2`}>
              Change
            </button>
          </roleFetcher.Form>
          <removeFetcher.Form
            method="post"
            onSubmit={(event) => {
              if (!window.confirm(`Remove ${who} from the team? They lose access at once.`)) event.preventDefault();
            }}
          >
            <input type="hidden" name="intent" value="remove" />
            <RecordIdField name="userId" id={member.userId} />
            <button type="submit" disabled={removeFetcher.state !== "idle"} className={`${secondaryButtonClass} py-2 text-red-700`}>
              Remove
            </button>
          </removeFetcher.Form>
          {member.role === "co-founder" ? (
            <transferFetcher.Form
              method="post"
              onSubmit={(event) => {
                if (!window.confirm(`Make ${who} the owner of this project? You become a co-founder.`)) event.preventDefault();
              }}
            >
              <input type="hidden" name="intent" value="transfer" />
              <RecordIdField name="userId" id={member.userId} />
              <button type="submit" disabled={transferFetcher.state !== "idle"} className={`${secondaryButtonClass} py-2`}>
                <Crown aria-hidden className="size-4" />
                Make owner
              </button>
            </transferFetcher.Form>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

function LeaveCard({ projectId }: { projectId: string }) {
  const fetcher = useFetcher<FormResult>();
  useToastResult(fetcher);
  return (
    <SectionCard id="team-leave-title" title="Leave this project" icon={LogOut} description="You lose access at once; the owner can invite you again.">
      <fetcher.Form
        method="post"
        action={`/project/${projectId}/team`}
        onSubmit={(event) => {
          if (!window.confirm("Leave this project?")) event.preventDefault();
        }}
      >
        <input type="hidden" name="intent" value="leave" />
        <button type="submit" disabled={fetcher.state !== "idle"} className={`${secondaryButtonClass} w-full text-red-700 sm:w-auto`}>
          <LogOut aria-hidden className="size-4" />
          Leave project
        </button>
      </fetcher.Form>
    </SectionCard>
  );
}
