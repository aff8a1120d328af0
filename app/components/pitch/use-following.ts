import { useCallback, useSyncExternalStore } from "react";
import { savedListStorage } from "~/modules/saved/saved-list";
import { FOLLOWING_EVENT, isFollowing } from "~/browser/following";

function subscribe(onChange: () => void) {
  window.addEventListener(FOLLOWING_EVENT, onChange);
  // Another tab that follows the project.
  window.addEventListener("storage", onChange);
  return () => {
    window.removeEventListener(FOLLOWING_EVENT, onChange);
    window.removeEventListener("storage", onChange);
  };
}

/** Whether this device follows the project: false on the server and while hydrating, then the device's state. */
export function useFollowing(slug: string): boolean {
  const snapshot = useCallback(() => isFollowing(savedListStorage(), slug), [slug]);
  return useSyncExternalStore(subscribe, snapshot, () => false);
}
