import { Bell, MessageSquare, MonitorSmartphone, Plug, Trash2, Undo2, Webhook, type LucideIcon } from "lucide-react";
import { useFetcher } from "react-router";
import { toast } from "sonner";
import { secondaryButtonClass } from "~/components/ui/buttons";
import { SectionCard } from "~/components/ui/card";
import { useFounderTimeZone } from "~/components/ui/use-clock";
import { useSettledResult } from "~/components/ui/use-settled-result";
import type { LeftoverKind } from "~/db/schema";
import { formatFounderDate } from "~/modules/time/founder-dates";
import type { FormResult } from "~/modules/forms/form-result";
import type { MemberLeftovers, SetUpThing, TeamSetups } from "~/modules/team/team-setups.server";
import { RecordIdField } from "~/components/ui/form-fields";

const KINDS: Record<LeftoverKind, { title: string; icon: LucideIcon }> = {
  webhook: { title: "Webhook", icon: Webhook },
  slack: { title: "Slack channel", icon: MessageSquare },
  booth: { title: "Booth link", icon: MonitorSmartphone },
  push: { title: "Push notifications", icon: Bell },
};

/** What the thing is, in one line under its kind: the webhook's address, the device, the booth link's end. */
function ThingDetail({ thing }: { thing: SetUpThing }) {
  const timeZone = useFounderTimeZone();
  if (thing.kind === "booth" && thing.until) return <>Works until {formatFounderDate(thing.until, timeZone)}</>;
  if (thing.kind === "slack") return <>New leads posted to Slack</>;
  return <span className="break-all">{thing.label}</span>;
}

function ThingText({ thing }: { thing: SetUpThing }) {
  const { title, icon: Icon } = KINDS[thing.kind];
  return (
    <span className="flex min-w-0 items-start gap-3">
      <Icon aria-hidden className="mt-0.5 size-4 shrink-0 text-slate-500" />
      <span className="min-w-0">
        <span className="block text-sm font-semibold text-slate-900">{title}</span>
        <span className="block text-xs text-slate-600">
          <ThingDetail thing={thing} />
        </span>
        <span className="block text-xs text-slate-500">Added by {thing.addedBy ?? "a deleted account"}</span>
      </span>
    </span>
  );
}

/** One fetcher for every Keep and Delete: the row goes once decided, so the answer is shown from the page. */
const LEFTOVER_FETCHER = "team-leftover";

/**
 * The Team page's view of what is set up for the project (decision 78): each webhook, the Slack channel, each booth
 * link and each push device, with who added it; and, for the owner, what each removed member set up, disabled
 * until the owner keeps or deletes it.
 */
export function TeamSetupsView({ setups }: { setups: TeamSetups }) {
  const fetcher = useFetcher<FormResult>({ key: LEFTOVER_FETCHER });
  useSettledResult(fetcher.data, fetcher.state === "idle", (result) => {
    if (result.ok) toast.success(result.message);
    else toast.error(result.formError);
  });
  return (
    <>
      {setups.leftovers.map((member) => (
        <LeftoversCard key={member.userId} member={member} />
      ))}
      <SectionCard id="team-setups-title" title="Set up for this project" icon={Plug} description="Where new leads go and what opens the booth, with who added it.">
        {setups.things.length ? (
          <ul className="-mx-1 divide-y divide-slate-100">
            {setups.things.map((thing) => (
              <li key={`${thing.kind}:${thing.id}`} className="px-1 py-3" aria-label={`${KINDS[thing.kind].title}, added by ${thing.addedBy ?? "someone"}`}>
                <ThingText thing={thing} />
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-600">No webhooks, Slack channel, booth links or push devices yet.</p>
        )}
      </SectionCard>
    </>
  );
}

function LeftoversCard({ member }: { member: MemberLeftovers }) {
  return (
    <SectionCard
      id={`team-leftovers-${member.userId}`}
      title={`What ${member.name} set up`}
      icon={Plug}
      description={`${member.name} is no longer on the team, so these are off: nothing is sent to them and no booth opens with them. Keep one and it works again, as yours; delete it and it goes.`}
    >
      <ul className="-mx-1 divide-y divide-slate-100">
        {member.things.map((thing) => (
          <LeftoverRow key={`${thing.kind}:${thing.id}`} thing={thing} />
        ))}
      </ul>
    </SectionCard>
  );
}

function LeftoverRow({ thing }: { thing: SetUpThing }) {
  const fetcher = useFetcher<FormResult>({ key: LEFTOVER_FETCHER });
  const busy = fetcher.state !== "idle";
  return (
    <li className="flex flex-wrap items-start justify-between gap-3 px-1 py-3" aria-label={KINDS[thing.kind].title}>
      <ThingText thing={thing} />
      <fetcher.Form method="post" className="flex shrink-0 gap-2">
        <input type="hidden" name="intent" value="leftover" />
        <input type="hidden" name="kind" value={thing.kind} />
        <RecordIdField name="itemId" id={thing.id} />
        <button type="submit" name="decision" value="keep" disabled={busy} className={`${secondaryButtonClass} py-2`}>
          <Undo2 aria-hidden className="size-4" />
          Keep
        </button>
        <button type="submit" name="decision" value="delete" disabled={busy} className={`${secondaryButtonClass} py-2 text-red-700`}>
          <Trash2 aria-hidden className="size-4" />
          Delete
        </button>
      </fetcher.Form>
    </li>
  );
}
