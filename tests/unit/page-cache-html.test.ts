import { describe, expect, it } from "vitest";
import { inlineScriptHashes, splitDialogs } from "~/modules/pitch/page-cache.server";

describe("inlineScriptHashes", () => {
  it("hashes every inline script and skips external ones", () => {
    const hashes = inlineScriptHashes('<script>a()</script><script src="/x.js"></script><script type="module">b()</script>');
    expect(hashes).toHaveLength(2);
    for (const hash of hashes) expect(hash).toMatch(/^'sha256-[A-Za-z0-9+/]+=*'$/);
  });
});

describe("splitDialogs", () => {
  it("cuts the dialogs' element out of the document and keeps what it holds", () => {
    const { document, dialogs } = splitDialogs('<body><main>Pitch</main><pitch-dialogs hidden=""><template data-pitch-dialog="intro"><dialog>Intro</dialog></template></pitch-dialogs><script>go()</script></body>');
    expect(document).toBe("<body><main>Pitch</main><script>go()</script></body>");
    expect(dialogs).toBe('<template data-pitch-dialog="intro"><dialog>Intro</dialog></template>');
  });

  it("leaves a document without dialogs as it is", () => {
    expect(splitDialogs("<body><main>Saved</main></body>")).toEqual({ document: "<body><main>Saved</main></body>", dialogs: null });
  });
});
