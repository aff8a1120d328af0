import { describe, expect, it } from "vitest";
import { deferScripts, inlineScriptHashes } from "~/modules/pitch/page-cache.server";

const document = [
  '<html><head><link rel="modulepreload" href="/assets/entry.client-a.js" nonce=""/></head><body>',
  "<p>content</p>",
  '<script nonce="">window.__reactRouterContext = {};</script>',
  '<script nonce="" type="module" async="">import "/assets/manifest-1.js";\nimport * as route0 from "/assets/root-b.js";\nimport * as route1 from "/assets/pitch-c.js";\nwindow.__reactRouterRouteModules = {"root":route0,"routes/pitch":route1};\nimport("/assets/entry.client-a.js");</script>',
  "</body></html>",
].join("");

describe("deferScripts", () => {
  it("parks the module preloads and makes the boot module import in order after the first paint", () => {
    const html = deferScripts(document);
    expect(html).not.toContain('rel="modulepreload"');
    expect(html).toContain('<link rel="x-deferred-modulepreload" href="/assets/entry.client-a.js"');
    const boot = /<script nonce="" type="module" async="">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? "";
    expect(boot).not.toMatch(/(^|[;\n])\s*import[\s"*{]/);
    const order = ["addEventListener(\"load\"", 'await import("/assets/manifest-1.js")', 'const route0 = await import("/assets/root-b.js")', 'const route1 = await import("/assets/pitch-c.js")', "window.__reactRouterRouteModules", 'import("/assets/entry.client-a.js")'];
    const positions = order.map((part) => boot.indexOf(part));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it("leaves a boot script of an unknown shape untouched", () => {
    const odd = '<script type="module">import { x } from "/a.js"; x();</script><link rel="modulepreload" href="/a.js"/>';
    expect(deferScripts(odd)).toBe(odd);
  });
});

describe("inlineScriptHashes", () => {
  it("hashes every inline script and skips external ones", () => {
    const hashes = inlineScriptHashes('<script>a()</script><script src="/x.js"></script><script type="module">b()</script>');
    expect(hashes).toHaveLength(2);
    for (const hash of hashes) expect(hash).toMatch(/^'sha256-[A-Za-z0-9+/]+=*'$/);
  });
});
