import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// A source file does one thing, and one thing fits in about 400 lines. The schema (every table's type) is longer by
// nature; the others listed here are to be split, and may not grow meanwhile.
const MAX_LINES = 400;
const LONGER: Record<string, number> = {
  "app/db/schema.ts": Infinity,
};

const root = path.resolve(import.meta.dirname, "../..");

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe("source file sizes", () => {
  it(`keeps every source file under ${MAX_LINES} lines, and the few longer ones from growing`, () => {
    const tooLong = ["app", "server"]
      .flatMap((dir) => sourceFiles(path.join(root, dir)))
      .map((file) => ({ file: path.relative(root, file).split(path.sep).join("/"), lines: (fs.readFileSync(file, "utf8").match(/\n/g) ?? []).length }))
      .filter(({ file, lines }) => lines > (LONGER[file] ?? MAX_LINES))
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(tooLong).toEqual([]);
  });
});
