import { describe, expect, it } from 'vitest';
import { MIN_TREE_ROWS, planPanes } from '../../../src/inspect/layout.js';

const demand = { treeRows: 6, problems: 1, watchLines: 1, ensembleLines: 4, events: 20 };
const used = (p: ReturnType<typeof planPanes>): number =>
  2 +
  p.problems +
  p.tree +
  (['watch', 'ensemble', 'events'] as const).reduce((n, k) => n + (p[k] > 0 ? p[k] + 1 : 0), 0);

describe('planPanes', () => {
  it('uses every line of a roomy terminal and no more', () => {
    const p = planPanes(120, 40, { ...demand, events: 100 });
    expect(p).toMatchObject({ mode: 'full', problems: 1, watch: 1, ensemble: 4 });
    expect(used(p)).toBe(40);
    // The tree needs six rows; the spare ones go to the event log.
    expect(p.tree).toBe(demand.treeRows);
    expect(p.events).toBe(40 - 2 - 1 - 6 - 2 - 5 - 1);
  });

  it('never plans more lines than there are, at any size', () => {
    for (let h = 15; h <= 60; h++) {
      const p = planPanes(100, h, { ...demand, treeRows: 500, problems: 5, watchLines: 9, ensembleLines: 8 });
      expect(used(p), `height ${h}`).toBeLessThanOrEqual(h);
      expect(p.tree, `height ${h}`).toBeGreaterThanOrEqual(MIN_TREE_ROWS);
    }
  });

  it('goes compact below 60 columns or 15 rows, and too small below 30×5', () => {
    expect(planPanes(59, 40, demand).mode).toBe('compact');
    expect(planPanes(100, 14, demand)).toMatchObject({ mode: 'compact', tree: 12, watch: 0, ensemble: 0, events: 0 });
    expect(planPanes(29, 40, demand).mode).toBe('too-small');
    expect(planPanes(100, 4, demand).mode).toBe('too-small');
  });
});
