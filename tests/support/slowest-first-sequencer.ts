import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The files that take longest, as measured on a two-core machine (README), longest first. Vitest starts one
 * project's files before another's (e2e before hardening, by name) and, with no record of earlier runs (a fresh clone,
 * CI), larger files first: the fuzzer and the crash loop then started last, and one worker ran them alone at the end.
 * Started first, whatever their project, the two workers finish together. A file not listed keeps Vitest's order.
 */
const SLOWEST_FIRST = [
  "tests/hardening/fuzz.test.ts",
  "tests/e2e/accessibility-signed-in.test.ts",
  "tests/e2e/accessibility-signed-out.test.ts",
  "tests/hardening/crash-loop.test.ts",
  "tests/e2e/mail-you-can-trust.test.ts",
  "tests/e2e/venue-ground-truth.test.ts",
  "tests/e2e/founder-journey.test.ts",
  "tests/e2e/sign-in.test.ts",
  "tests/e2e/pitch-door-counting.test.ts",
  "tests/e2e/pitch-forms.test.ts",
];

export default class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = SLOWEST_FIRST.findIndex((path) => file.moduleId.endsWith(path));
      return index === -1 ? SLOWEST_FIRST.length : index;
    };
    const sorted = await super.sort(files);
    return sorted
      .map((file, order) => ({ file, order }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.order - b.order)
      .map(({ file }) => file);
  }
}
