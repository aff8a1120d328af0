import { describe, expect, it } from "vitest";
import { inlineScriptHashes } from "~/modules/pitch/page-cache.server";

describe("inlineScriptHashes", () => {
  it("hashes every inline script and skips external ones", () => {
    const hashes = inlineScriptHashes('<script>a()</script><script src="/x.js"></script><script type="module">b()</script>');
    expect(hashes).toHaveLength(2);
    for (const hash of hashes) expect(hash).toMatch(/^'sha256-[A-Za-z0-9+/]+=*'$/);
  });
});
