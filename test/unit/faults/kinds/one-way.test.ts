import { describe, expect, it } from 'vitest';
import { hooksFor } from '../../../../src/faults/kinds/kind.js';
import { oneWay } from '../../../../src/faults/kinds/one-way.js';
import { stepModes } from '../../../../src/faults/kinds/registry.js';
import { emptyState } from '../../../../src/lab/state.js';
import { describeRule, directed, healRules, ruleCuts } from '../../../../src/net/partition.js';

describe('the one-way cut as a kind', () => {
  it('is a mode of the partition step, written oneWay', () => {
    expect(stepModes('partition').map((m) => m.mode)).toContain('oneWay');
    expect(oneWay.steps[0]!.describe({ from: 'c1', to: 'zk2' })).toBe('partition: one-way c1 → zk2');
  });

  it("makes a directed rule of net/'s: it cuts one way, reads as before, and a heal of either end lifts it", () => {
    const rule = directed(oneWay.name, 'c1', 'zk2');
    expect(describeRule(rule)).toBe('one-way c1 → zk2 (blackhole)');
    expect(ruleCuts(rule, 'c1', 'zk2')).toBe(true);
    expect(ruleCuts(rule, 'zk2', 'c1')).toBe(false);
    expect(healRules([rule], ['c1', 'zk2'], 'zk2')).toEqual([]);
  });

  it('is refused on the link proxies, which carry whole connections', () => {
    expect(() => hooksFor(oneWay, emptyState())).toThrow(
      "a one-way cut needs the lab's node network: link proxies carry whole connections, both ways",
    );
  });
});
