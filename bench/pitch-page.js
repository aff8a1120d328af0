import { spawn } from "node:child_process";
import { clientJsGzipBytes } from "./client-size.js";
import { freePort, startServer } from "./support.js";
import { ensureWrk, fmt, runWrk } from "./wrk.js";

/** The ceiling: a bare Node http server answering a fixed 5 KB HTML string. */
async function startBareNode() {
  const port = await freePort();
  const code = `
    const html = "<!doctype html><html><body>" + "x".repeat(5 * 1024) + "</body></html>";
    require("node:http").createServer((req, res) => { res.writeHead(200, { "content-type": "text/html" }); res.end(html); })
      .listen(${port}, "127.0.0.1", () => console.log("ready"));`;
  const child = spawn(process.execPath, ["-e", code], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise((resolve) => child.stdout.once("data", resolve));
  return { url: `http://127.0.0.1:${port}/`, stop: () => child.kill() };
}

export default async function pitchPage() {
  ensureWrk();
  const figures = {};
  const bare = await startBareNode();
  figures["bare Node http, 5 KB HTML (ceiling)"] = fmt(runWrk(bare.url));
  bare.stop();

  const server = await startServer();
  try {
    const page = `${server.url}/pitch/demo-project`;
    const sizes = await clientJsGzipBytes(server.url, "/pitch/demo-project");
    figures["pitch page HTML, gzip (KB)"] = (sizes.htmlGzip / 1024).toFixed(1);
    figures["pitch route JS, gzip (KB)"] = `${(sizes.jsGzip / 1024).toFixed(1)} in ${sizes.files} files`;

    const first = await fetch(page);
    figures["served from page cache"] = first.headers.get("x-page-cache") === "hit" ? "yes" : "no";

    // A short warm-up first, so the figures are of a running server and not of the JIT compiler.
    runWrk(page, { seconds: 3, headers: { "Accept-Encoding": "gzip" } });
    const cached = runWrk(page, { headers: { "Accept-Encoding": "gzip" } });
    // Any query key other than ?qr= skips the cache: the app's own uncached server render, same process.
    runWrk(`${page}?bench=uncached`, { seconds: 3, headers: { "Accept-Encoding": "gzip" } });
    const uncached = runWrk(`${page}?bench=uncached`, { headers: { "Accept-Encoding": "gzip" } });
    figures["pitch page, anonymous (cached)"] = fmt(cached);
    figures["pitch page, uncached server render"] = fmt(uncached);
    figures["cached / uncached throughput"] = `${(cached.requestsPerSecond / uncached.requestsPerSecond).toFixed(1)}x`;
  } finally {
    await server.stop();
  }
  return figures;
}
