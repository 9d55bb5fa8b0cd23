import { describe, expect, it } from 'vitest';
import { heal } from '../../../../src/faults/kinds/heal.js';
import type { StepBuild } from '../../../../src/faults/kinds/step.js';
import type { TargetKind } from '../../../../src/faults/targets.js';

describe('the heal as a kind', () => {
  it('opens no window of its own: the partitions it lifts end theirs', () => {
    expect(heal).not.toHaveProperty('windows');
  });

  it('lifts partitions through the net plan, on the link proxies and the node network alike', () => {
    expect(heal.backends.proxy).toBe(heal.backends.ns);
  });

  it('takes a target or all as its drill step', () => {
    const allowed: (readonly TargetKind[] | undefined)[] = [];
    const ctx: StepBuild = {
      failpoints: null,
      target: (name, _field, kinds) => {
        allowed.push(kinds);
        return name;
      },
      problem: () => undefined,
    };
    const step = heal.steps[0]!;
    expect(step.build('all', ctx)).toEqual({ target: 'all' });
    expect(allowed[0]).toContain('all');
    expect(step.describe({ target: 'leader' })).toBe('heal leader');
  });
});
