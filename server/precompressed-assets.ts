import fs from "node:fs";
import path from "node:path";
import type { RequestHandler } from "express";
import { preferredEncoding } from "./pitch-page";

/**
 * The build's hashed scripts and stylesheets as compressed once at build time, at brotli's highest quality
 * (`vite.config.ts`, decision 46): answered as they are to a browser that takes brotli (the pitch page's module
 * is 12% smaller than the compression middleware makes it on the fly). Anything else, or a browser that takes
 * no brotli, falls through to `express.static` and the compression middleware.
 */
export function precompressedAssets(dir: string): RequestHandler {
  const compressed = new Set(
    fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.endsWith(".br")).map((name) => name.slice(0, -".br".length)) : [],
  );
  return (req, res, next) => {
    const name = req.path.slice(1);
    if ((req.method !== "GET" && req.method !== "HEAD") || !compressed.has(name)) return next();
    res.vary("Accept-Encoding");
    if (preferredEncoding(req.headers["accept-encoding"]) !== "br") return next();
    res.setHeader("Content-Encoding", "br");
    res.type(path.extname(name));
    res.sendFile(path.join(dir, `${name}.br`), { immutable: true, maxAge: "1y" }, (error) => {
      if (error) next(error);
    });
  };
}
