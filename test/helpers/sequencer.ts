import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The lab files that take longest, longest first (seconds two at a time on a 2-core machine, as last measured). They
 * start first, so no long file starts late and runs on alone at the end. vitest orders by its timing cache, which a
 * fresh clone (CI) does not have: it then starts the largest files first, and once started the 250 s audit file last.
 */
export const LONGEST_FIRST = [
  'test/integration/clock-lessons.test.ts', // 155 s
  'test/integration/audit.test.ts', // 145 s
  'test/integration/drills.test.ts', // 135 s
  'test/integration/benchmarks.test.ts', // 75 s
  'test/integration/node-net.test.ts', // 65 s
  'test/e2e/readme.test.ts', // 60 s
  'test/integration/nodes.test.ts', // 55 s
  'test/integration/foreign-contenders.test.ts', // 45 s
];

/** vitest's order (its timing cache, failed files first), with the files above before all others. */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const rank = (f: TestSpecification) => {
      const i = LONGEST_FIRST.indexOf(relative(root, f.moduleId));
      return i < 0 ? LONGEST_FIRST.length : i;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
