import { defineConfig } from 'vitest/config';
import LongestFirst from './test/helpers/sequencer.js';

export default defineConfig({
  test: {
    exclude: ['test/bench/**', 'node_modules/**'],
    pool: 'forks',
    // The unit files' threads stay up from file to file (vitest reads pool options from the root only). The lab files
    // keep a fresh process each: in one kept-up process the native ZooKeeper client stopped getting sessions after
    // a few dozen files ("no session within 5s").
    poolOptions: { threads: { isolate: false } },
    // Two files at a time: the unit files' threads, the lab files' processes (see each project).
    maxWorkers: 2,
    minWorkers: 1,
    testTimeout: 60_000,
    hookTimeout: 90_000,
    globalSetup: ['test/helpers/global-setup.ts'],
    sequence: { sequencer: LongestFirst },
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        // Pure logic and views: two files at a time, first, in threads that stay up from file to file (a fresh
        // process per file cost a minute and a half of the unit files' two and a half).
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.{ts,tsx}'],
          sequence: { groupOrder: 0 },
          pool: 'threads',
        },
      },
      {
        extends: true,
        // These start JVMs, two files at a time: a lab mostly waits on sessions and timeouts (one file alone keeps a
        // 2-core machine under half busy), and every verdict allows for a loaded machine (a probe's slow runs, a
        // late sampler). The ports, registry and kernel objects of labs side by side are each lab's own. The longest
        // start first; the reproductions of real clients' races start last, when nothing heavy runs beside them
        // (test/helpers/sequencer.ts).
        test: {
          name: 'labs',
          include: ['test/integration/**/*.test.{ts,tsx}', 'test/e2e/**/*.test.{ts,tsx}'],
          fileParallelism: true,
          // A test marked concurrent (a built-in drill, mostly waiting on sessions) runs beside one more at most.
          maxConcurrency: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
