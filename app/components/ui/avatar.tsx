export const avatarClass =
  "flex size-9 items-center justify-center rounded-full bg-brand-600 text-sm font-semibold text-white shadow-sm hover:bg-brand-700";

export function avatarLetter(email: string | null | undefined): string {
  const first = email?.trim().charAt(0);
  return first ? first.toUpperCase() : "U";
}

/** The signed-in person's initial in a brand circle (the account menu's trigger looks the same). */
export function AvatarBadge({ email }: { email: string }) {
  return (
    <span aria-hidden className={avatarClass}>
      {avatarLetter(email)}
    </span>
  );
}
