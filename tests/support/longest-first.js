// Plain JavaScript so vitest.config.ts can import it as it is (Vite's config loader wants a file extension).
import fs from "node:fs";
import path from "node:path";
import { BaseSequencer } from "vitest/node";

/**
 * The files that take a minute or more each (a clean checkout has no timings of earlier runs to go by), longest
 * first: started before the rest, so the short files fill the other worker around them instead of a long file
 * starting last and running alone at the end.
 */
export const START_FIRST = [
  "tests/hardening/crash-loop.test.ts",
  "tests/hardening/fuzz.test.ts",
  "tests/e2e/venue-ground-truth.test.ts",
  "tests/concurrency/live-wall-instances.test.ts",
  "tests/e2e/accessibility-signed-in.test.ts",
  "tests/e2e/accessibility-signed-out.test.ts",
  "tests/e2e/sign-in.test.ts",
];

/**
 * Longest first across the projects that share one pool (Vitest's own order runs the projects one after another,
 * so the hardening suite's long files started only after every end-to-end file): the files above in their order,
 * then by the duration Vitest recorded for each in an earlier run, else the larger file first.
 */
export class LongestFirst extends BaseSequencer {
  /** @param {import("vitest/node").TestSpecification[]} files */
  async sort(files) {
    // `--sequence.shuffle` still runs the files in a random order (decision 34: tests independent of order).
    if (this.ctx.config.sequence.shuffle) return shuffled(files, this.ctx.config.sequence.seed);
    const root = this.ctx.config.root;
    /** @param {import("vitest/node").TestSpecification} spec */
    const relative = (spec) => path.relative(root, spec.moduleId).split(path.sep).join("/");
    /** @param {import("vitest/node").TestSpecification} spec */
    const rank = (spec) => {
      const index = START_FIRST.indexOf(relative(spec));
      return index === -1 ? START_FIRST.length : index;
    };
    /** @param {import("vitest/node").TestSpecification} spec */
    const duration = (spec) => this.ctx.cache.getFileTestResults(`${spec.project.name}:${relative(spec)}`)?.duration;
    /** @param {import("vitest/node").TestSpecification} spec */
    const size = (spec) => fs.statSync(spec.moduleId, { throwIfNoEntry: false })?.size ?? 0;
    return [...files].sort((a, b) => {
      const byRank = rank(a) - rank(b);
      if (byRank !== 0) return byRank;
      const [durationA, durationB] = [duration(a), duration(b)];
      if (durationA !== undefined && durationB !== undefined) return durationB - durationA;
      if (durationA !== undefined || durationB !== undefined) return durationA === undefined ? -1 : 1;
      return size(b) - size(a);
    });
  }
}

/**
 * The files in an order drawn from `seed` (the seed Vitest prints, so `--sequence.seed` repeats it).
 * @template T
 * @param {T[]} items
 * @param {number} seed
 */
function shuffled(items, seed) {
  const result = [...items];
  let state = seed >>> 0 || 1;
  const next = () => {
    // xorshift32: enough to mix a list of files, and the same for the same seed.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4_294_967_296;
  };
  for (let index = result.length - 1; index > 0; index -= 1) {
    const other = Math.floor(next() * (index + 1));
    [result[index], result[other]] = [result[other], result[index]];
  }
  return result;
}
