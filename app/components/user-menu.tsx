import { FolderKanban, LogOut, Sparkles } from "lucide-react";
import { DropdownMenu } from "radix-ui";
import { Link, useSubmit } from "react-router";
import { avatarClass, avatarLetter } from "~/components/ui/avatar";

export default function UserMenu({ email }: { email: string }) {
  const submit = useSubmit();
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        aria-label="Account menu"
        className={avatarClass}
      >
        {avatarLetter(email)}
      </DropdownMenu.Trigger>
      {/*
        No portal: the open menu stays in the site header (the page's banner landmark), so everything on the page
        is inside a landmark for screen-reader navigation (axe's 'region' rule).
      */}
      <DropdownMenu.Content
        align="end"
        sideOffset={8}
        className="z-50 min-w-48 rounded-lg border border-slate-200 bg-white p-1 text-sm shadow-lg"
      >
        <DropdownMenu.Label className="truncate px-2 py-1.5 text-xs text-slate-500">{email}</DropdownMenu.Label>
        <DropdownMenu.Item asChild>
          <Link to="/my-projects" className="flex items-center gap-2 rounded px-2 py-1.5 outline-none data-[highlighted]:bg-slate-100">
            <FolderKanban aria-hidden className="size-4" /> My Projects
          </Link>
        </DropdownMenu.Item>
        <DropdownMenu.Item asChild>
          <Link to="/dashboard" className="flex items-center gap-2 rounded px-2 py-1.5 outline-none data-[highlighted]:bg-slate-100">
            <Sparkles aria-hidden className="size-4" /> My Signals
          </Link>
        </DropdownMenu.Item>
        <DropdownMenu.Separator className="my-1 h-px bg-slate-100" />
        <DropdownMenu.Item
          onSelect={() => void submit(null, { method: "post", action: "/auth/sign-out" })}
          className="flex w-full cursor-pointer items-center gap-2 rounded px-2 py-1.5 outline-none data-[highlighted]:bg-slate-100"
        >
          <LogOut aria-hidden className="size-4" /> Sign Out
        </DropdownMenu.Item>
      </DropdownMenu.Content>
    </DropdownMenu.Root>
  );
}
