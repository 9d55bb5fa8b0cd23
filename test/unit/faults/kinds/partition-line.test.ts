import { describe, expect, it } from 'vitest';
import { isolate } from '../../../../src/faults/kinds/isolate.js';
import { oneWay } from '../../../../src/faults/kinds/one-way.js';
import { PARTITION_WINDOW, partitionTargets } from '../../../../src/faults/kinds/partition-line.js';
import { stepModes, windowRuleOf } from '../../../../src/faults/kinds/registry.js';
import { split } from '../../../../src/faults/kinds/split.js';
import { labEvent } from '../../../helpers/events.js';

const isolation = labEvent(1, 'partition', { description: 'isolate c1 (blackhole)', mode: 'blackhole', target: 'c1' });
const splitLine = labEvent(1, 'partition', {
  description: 'split zk1,c1 | zk2,zk3 (blackhole)',
  mode: 'blackhole',
  groups: [
    ['zk1', 'c1'],
    ['zk2', 'zk3'],
  ],
});

describe('the partition line, which every kind that cuts links writes', () => {
  it('is one rule, listed by each of those kinds', () => {
    expect(windowRuleOf('partition')).toBe(PARTITION_WINDOW);
    expect(isolate.windows).toContain(PARTITION_WINDOW);
    expect(split.windows).toContain(PARTITION_WINDOW);
    expect(oneWay.windows).toContain(PARTITION_WINDOW);
    expect(stepModes('partition').map((m) => m.mode)).toEqual(['isolate', 'split', 'oneWay']);
  });

  it('hits the isolated member, both ends of a one-way cut, or the groups of a split without a server majority', () => {
    expect(partitionTargets(isolation)).toEqual(['c1']);
    expect(partitionTargets(splitLine)).toEqual(['zk1', 'c1']);
    // ZooKeeper's packets to the leader dropped: the leader is cut off, though it is the receiving end.
    const deaf = labEvent(1, 'partition', {
      description: 'one-way zk1 → c1',
      mode: 'blackhole',
      target: 'zk1',
      peer: 'c1',
    });
    expect(partitionTargets(deaf)).toEqual(['zk1', 'c1']);
  });

  it('lasts until a heal of partitions lifts it: all, or a member it cut off', () => {
    const heal = (kind: 'partition' | 'delay', target?: string) =>
      labEvent(2, 'heal', { kind, description: `heal ${target ?? 'all'}`, ...(target ? { target } : {}) });
    expect(PARTITION_WINDOW.endedBy?.(splitLine, heal('partition', 'c1'))).toBe(true);
    expect(PARTITION_WINDOW.endedBy?.(splitLine, heal('partition'))).toBe(true);
    expect(PARTITION_WINDOW.endedBy?.(splitLine, heal('partition', 'zk2'))).toBe(false);
    expect(PARTITION_WINDOW.endedBy?.(isolation, heal('delay', 'c1'))).toBe(false);
  });
});
