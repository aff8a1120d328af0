import { useEffect, useState } from "react";
import { toast } from "sonner";

/** Copies text; `copied` names what was copied last for 2 seconds (SPEC.md sections 4 and 8). */
export function useCopy() {
  const [copied, setCopied] = useState<string | null>(null);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(null), 2_000);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copy(text: string, key: string) {
    try {
      if (!navigator.clipboard) throw new Error("Clipboard unavailable");
      await navigator.clipboard.writeText(text);
      setCopied(key);
    } catch {
      toast.error("Failed to copy", { description: "Please copy manually" });
    }
  }

  return { copied, copy };
}
