import type { ProjectStatus } from "~/db/schema";

const LOOKS = {
  /** Cards and lists: a ringed pill with a dot. */
  dot: {
    base: "inline-flex shrink-0 items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset",
    published: "bg-emerald-50 text-emerald-700 ring-emerald-600/20",
    draft: "bg-amber-50 text-amber-800 ring-amber-600/25",
  },
  /** Beside a title in running text (the project form's heading). */
  plain: {
    base: "inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold",
    published: "bg-green-100 text-green-800",
    draft: "bg-yellow-100 text-yellow-800",
  },
} as const;

/** Published is green, anything else (a draft) is yellow. */
export function StatusBadge({ status, look = "dot" }: { status: ProjectStatus | string; look?: keyof typeof LOOKS }) {
  const published = status === "published";
  const style = LOOKS[look];
  return (
    <span className={`${style.base} ${published ? style.published : style.draft}`}>
      {look === "dot" ? <span aria-hidden className={`size-1.5 rounded-full ${published ? "bg-emerald-500" : "bg-amber-500"}`} /> : null}
      {published ? "Published" : status === "draft" || look === "plain" ? "Draft" : status}
    </span>
  );
}
