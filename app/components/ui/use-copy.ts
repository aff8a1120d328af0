import { useEffect, useState } from "react";
import { toast } from "sonner";
import { COPIED_MS, COPY_FAILED_MESSAGE, copyText } from "~/browser/copy-text";

const toastFailure = () => void toast.error(COPY_FAILED_MESSAGE);

/**
 * Copies text; `copied` names what was copied last for 2 seconds. A failure is said in
 * a toast: the app's by default, `onFailed` where the page has its own (the pitch page's).
 */
export function useCopy(onFailed: () => void = toastFailure) {
  const [copied, setCopied] = useState<string | null>(null);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(null), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copy(text: string, key: string) {
    if (await copyText(text)) setCopied(key);
    else onFailed();
  }

  return { copied, copy };
}
