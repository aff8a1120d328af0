/**
 * 'Following' on this device: once a visitor follows a project's updates here, its Follow buttons say
 * so on every later visit. Kept in this browser's localStorage, one key per project (no account; the server knows
 * the subscription by e-mail only). Both renderers call this: the React page through `useFollowing`, the anonymous
 * page's script through `showFollowing`.
 */

const FOLLOWING_KEY = "pitchqr:following:";
/** Dispatched on `window` when this tab starts following a project, with its slug. */
export const FOLLOWING_EVENT = "pitchqr:following";

export const FOLLOWING_LABEL = "Following";

export function isFollowing(storage: Pick<Storage, "getItem"> | null, slug: string): boolean {
  try {
    return storage?.getItem(FOLLOWING_KEY + slug) === "1";
  } catch {
    return false;
  }
}

/** Remembers that this device follows the project, and tells the page (a blocked storage remembers nothing). */
export function rememberFollowing(storage: Pick<Storage, "setItem"> | null, slug: string): void {
  try {
    storage?.setItem(FOLLOWING_KEY + slug, "1");
  } catch {
    // Full or blocked storage: the buttons just do not say 'Following' next time.
  }
  dispatchEvent(new CustomEvent(FOLLOWING_EVENT, { detail: slug }));
}

/**
 * The anonymous page's Follow buttons switched to 'Following', as `HeroActions` and `MobileActionBar` render them
 * when `following` is true: each one's text carries the words in `data-follow-label`.
 */
export function showFollowing(root: ParentNode): void {
  for (const text of root.querySelectorAll<HTMLElement>("[data-follow-label]")) {
    text.textContent = text.dataset.followLabel!;
    const link = text.closest("a")!;
    link.dataset.following = "true";
    if (link.ariaLabel) link.ariaLabel = text.dataset.followLabel!;
  }
}
