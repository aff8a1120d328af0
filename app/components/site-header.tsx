import { ArrowLeft, FolderKanban, LogOut, Sparkles } from "lucide-react";
import { DropdownMenu } from "radix-ui";
import { Link, useLocation, useNavigate, useSubmit } from "react-router";
import { PRODUCT_NAME } from "~/product";

type HeaderUser = { email: string; name: string } | null;

export function SiteHeader({ user }: { user: HeaderUser }) {
  const location = useLocation();
  const onPitchPage = location.pathname.startsWith("/pitch/");
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/90 backdrop-blur">
      <div className="mx-auto flex h-14 max-w-6xl items-center justify-between gap-3 px-4">
        <div className="flex items-center gap-2">
          {onPitchPage ? <BackButton /> : null}
          <Link to="/" className="flex items-center gap-1.5 text-lg font-bold tracking-tight text-slate-900">
            <Sparkles aria-hidden className="size-5 text-brand-600" />
            {PRODUCT_NAME}
          </Link>
        </div>
        {user ? (
          <UserMenu email={user.email} />
        ) : (
          <Link
            to="/auth"
            className="rounded-md bg-brand-600 px-3 py-1.5 text-sm font-semibold text-white shadow-sm hover:bg-brand-700"
          >
            Sign In
          </Link>
        )}
      </div>
    </header>
  );
}

function BackButton() {
  const navigate = useNavigate();
  return (
    <button
      type="button"
      onClick={() => (window.history.state?.idx > 0 ? navigate(-1) : navigate("/"))}
      className="flex items-center gap-1 rounded-md px-2 py-1 text-sm font-medium text-slate-700 hover:bg-slate-100"
    >
      <ArrowLeft aria-hidden className="size-4" />
      Back
    </button>
  );
}

export function avatarLetter(email: string | null | undefined): string {
  const first = email?.trim().charAt(0);
  return first ? first.toUpperCase() : "U";
}

function UserMenu({ email }: { email: string }) {
  const submit = useSubmit();
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger
        aria-label="Account menu"
        className="flex size-9 items-center justify-center rounded-full bg-brand-600 text-sm font-semibold text-white shadow-sm hover:bg-brand-700"
      >
        {avatarLetter(email)}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
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
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
