import { ArrowLeft, Sparkles } from "lucide-react";
import { lazy, Suspense } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { AvatarBadge } from "~/components/ui/avatar";
import { authPathFor } from "~/modules/auth/return-to";
import { PRODUCT_NAME } from "~/product";

/** Where Sign In returns to: the page it was asked from, My Projects from the home page (a founder's start). */
function signInPath(pathname: string, search: string): string {
  if (pathname.startsWith("/auth")) return "/auth";
  return authPathFor(pathname === "/" ? "/my-projects" : `${pathname}${search}`);
}

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
          <Suspense fallback={<AvatarBadge email={user.email} />}>
            <UserMenu email={user.email} />
          </Suspense>
        ) : (
          <Link
            to={signInPath(location.pathname, location.search)}
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
      data-history-back
      onClick={() => (window.history.state?.idx > 0 ? navigate(-1) : navigate("/"))}
      className="flex items-center gap-1 rounded-md px-2 py-1 text-sm font-medium text-slate-700 hover:bg-slate-100"
    >
      <ArrowLeft aria-hidden className="size-4" />
      Back
    </button>
  );
}

// Signed-out visitors (everyone scanning a QR code) never download the menu's code.
const UserMenu = lazy(() => import("./user-menu"));
