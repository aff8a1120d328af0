import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream";
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
    const file = path.join(dir, `${name}.br`);
    fs.stat(file, (error, stats) => {
      if (error) return next(error);
      // A hashed file never changes and is never asked for again: no validators (Express's sendFile would add an
      // ETag whatever it is told), and no ranges of a compressed body.
      res.setHeader("Content-Encoding", "br");
      res.type(path.extname(name));
      res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
      res.setHeader("Content-Length", stats.size);
      if (req.method === "HEAD") return void res.end();
      pipeline(fs.createReadStream(file), res, (failure) => {
        if (failure && !res.headersSent) next(failure);
      });
    });
  };
}
