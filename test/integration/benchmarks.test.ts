import { describe, expect, it } from 'vitest';
import { benchModules } from '../bench/modules.js';

/**
 * Every benchmark at its smoke size (`run({ smoke: true })`): one that can no longer run fails here rather than in
 * the next full `npm run bench`. Only that it reported a finite figure on every row is checked; its targets (pass or
 * MISS) are for full runs.
 */
const benches = await benchModules();

describe('benchmarks at smoke size', () => {
  it('finds the benchmarks as `npm run bench` does', () => {
    expect(benches.map((b) => b.name)).toEqual(expect.arrayContaining(['contenders', 'drills', 'membership']));
  });

  for (const bench of benches)
    it(bench.name, { timeout: 180_000 }, async () => {
      const rows = await bench.run({ smoke: true });
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.filter((r) => !Number.isFinite(r.value)).map((r) => r.name)).toEqual([]);
    });
});
