import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends the run with the files that took longest (where the suite's time goes) and one plain line, "Tests: N passed,
 * N failed, N skipped", that any CI can read.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const m of modules) {
      for (const t of m.children.allTests()) {
        const s = t.result().state;
        if (s === 'passed') passed++;
        else if (s === 'failed') failed++;
        else skipped++;
      }
      // A file that fails outside its tests (import, beforeAll) leaves them skipped: it counts as one failure.
      if (m.state() === 'failed' && ![...m.children.allTests()].some((t) => t.result().state === 'failed')) failed++;
    }
    const slowest = modules
      .map((m) => ({ file: m.moduleId.replace(`${process.cwd()}/`, ''), ms: m.diagnostic().duration }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 15)
      .map((f) => `  ${(f.ms / 1000).toFixed(1).padStart(7)} s  ${f.file}`);
    // After everything else vitest prints, so it is the closing line.
    process.once('exit', () =>
      process.stdout.write(
        `\nSlowest files:\n${slowest.join('\n')}\n\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`,
      ),
    );
  }
}
