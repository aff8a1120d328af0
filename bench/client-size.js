import zlib from "node:zlib";
import { startServer } from "./support.js";

/** The JavaScript a first visit to a page downloads: every module script and modulepreload in its HTML, gzipped. */
export async function clientJsGzipBytes(baseUrl, pagePath) {
  const html = await (await fetch(new URL(pagePath, baseUrl))).text();
  const urls = new Set();
  for (const match of html.matchAll(/<(?:script|link)\b[^>]*?(?:src|href)="([^"]+\.js)"/g)) urls.add(match[1]);
  for (const match of html.matchAll(/import\s*(?:[^"']*from\s*)?["']([^"']+\.js)["']/g)) urls.add(match[1]);
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
    return {
      "Home page JS, gzip (KB)": (home.jsGzip / 1024).toFixed(1),
      "Home page JS files": home.files,
      "Home page HTML, gzip (KB)": (home.htmlGzip / 1024).toFixed(1),
    };
  } finally {
    await server.stop();
  }
}
