import { CheckCircle2, Home, Mail, Share2, Sparkles } from "lucide-react";
import { Link } from "react-router";
import { toast } from "sonner";
import { primaryButtonClass, secondaryButtonClass } from "~/components/ui/buttons";
import { COPY_FAILED_MESSAGE, copyText } from "~/browser/copy-text";
import { PRODUCT_NAME } from "~/product";
import type { Route } from "./+types/pledge-success";

export const meta: Route.MetaFunction = () => [{ title: `Thank you · ${PRODUCT_NAME}` }, { name: "robots", content: "noindex" }];

const nextSteps = [
  { icon: Mail, title: "Confirmation e-mail", text: "You'll receive a short confirmation of your signal. It is non-binding: no payment is made." },
  { icon: Sparkles, title: "Recognition Wall", text: "If you chose to show your name, it now appears on the project's Recognition Wall." },
  { icon: CheckCircle2, title: "Updates", text: "The founder may follow up with updates and next steps. Investment talks happen off-platform." },
];

export default function PledgeSuccess() {
  async function share() {
    if (await copyText(window.location.origin)) toast.success("Link copied to clipboard!");
    else toast.error(COPY_FAILED_MESSAGE);
  }

  return (
    <main className="mx-auto max-w-xl px-4 py-12 text-center">
      <CheckCircle2 aria-hidden className="mx-auto size-14 text-emerald-600" />
      <h1 className="mt-4 text-3xl font-extrabold tracking-tight">Thank You for Your Support!</h1>
      <p className="mt-3 text-slate-600">Your signal of interest has been recorded. Here is what happens next:</p>
      <ol className="mt-8 space-y-3 text-left">
        {nextSteps.map(({ icon: Icon, title, text }) => (
          <li key={title} className="flex gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
            <Icon aria-hidden className="mt-0.5 size-5 shrink-0 text-brand-600" />
            <div>
              <p className="font-semibold">{title}</p>
              <p className="mt-1 text-sm text-slate-600">{text}</p>
            </div>
          </li>
        ))}
      </ol>
      <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
        <button type="button" onClick={share} className={primaryButtonClass}>
          <Share2 aria-hidden className="size-4" /> Share Project
        </button>
        <Link to="/" className={secondaryButtonClass}>
          <Home aria-hidden className="size-4" /> Back to Home
        </Link>
      </div>
    </main>
  );
}
