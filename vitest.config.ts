import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    exclude: ['test/bench/**', 'node_modules/**'],
    pool: 'forks',
    // The unit files' threads stay up from file to file (vitest reads pool options from the root only). The lab files
    // keep a fresh process each: in one kept-up process the native ZooKeeper client stopped getting sessions after
    // a few dozen files ("no session within 5s").
    poolOptions: { threads: { isolate: false } },
    testTimeout: 60_000,
    hookTimeout: 90_000,
    globalSetup: ['test/helpers/global-setup.ts'],
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
        // These start JVMs: one file at a time keeps a 2-core machine honest and the timings meaningful.
        test: {
          name: 'labs',
          include: ['test/integration/**/*.test.{ts,tsx}', 'test/e2e/**/*.test.{ts,tsx}'],
          fileParallelism: false,
          // A test marked concurrent (a built-in drill, mostly waiting on sessions) runs beside one more at most.
          maxConcurrency: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
