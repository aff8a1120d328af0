import zlib from "node:zlib";
import { startServer } from "./support.js";

/** The JavaScript a first visit to a page downloads: every module script and modulepreload in its HTML, gzipped. */
export async function clientJsGzipBytes(baseUrl, pagePath) {
  const html = await (await fetch(new URL(pagePath, baseUrl))).text();
  const urls = new Set();
  for (const match of html.matchAll(/<(?:script|link)\b[^>]*?(?:src|href)="([^"]+\.js)"/g)) urls.add(match[1]);
  // `import "…"`, `import … from "…"` and `import("…")` (the shared document imports its module after first paint).
  for (const match of html.matchAll(/import\s*(?:\(\s*|[^"'()]*from\s*)?["']([^"']+\.js)["']/g)) urls.add(match[1]);
  let total = 0;
  for (const url of urls) {
    const body = Buffer.from(await (await fetch(new URL(url, baseUrl))).arrayBuffer());
    total += zlib.gzipSync(body, { level: 9 }).length;
  }
  const htmlGzip = zlib.gzipSync(Buffer.from(html), { level: 9 }).length;
  return { files: urls.size, jsGzip: total, htmlGzip };
}

export default async function clientSize() {
  const server = await startServer();
  try {
    const home = await clientJsGzipBytes(server.url, "/");
    const pitch = await clientJsGzipBytes(server.url, "/pitch/demo-project");
    const pitchHtml = await (await fetch(new URL("/pitch/demo-project", server.url))).text();
    const inlineCss = [...pitchHtml.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/g)].map((match) => match[1]).join("");
    return {
      "Home page JS, gzip (KB)": (home.jsGzip / 1024).toFixed(1),
      "Home page JS files": home.files,
      "Home page HTML, gzip (KB)": (home.htmlGzip / 1024).toFixed(1),
      "Anonymous pitch page JS, gzip (KB)": (pitch.jsGzip / 1024).toFixed(1),
      "Anonymous pitch page JS files": pitch.files,
      "Anonymous pitch page inline CSS, gzip alone (KB)": (zlib.gzipSync(Buffer.from(inlineCss), { level: 9 }).length / 1024).toFixed(1),
      "Anonymous pitch page HTML with its CSS, gzip (KB)": (pitch.htmlGzip / 1024).toFixed(1),
    };
  } finally {
    await server.stop();
  }
}
