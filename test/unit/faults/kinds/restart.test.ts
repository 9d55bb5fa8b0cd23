import { describe, expect, it } from 'vitest';
import { restart } from '../../../../src/faults/kinds/restart.js';
import type { StepBuild } from '../../../../src/faults/kinds/step.js';

describe('the server restart as a kind', () => {
  const step = restart.steps[0]!;

  it('acts on servers whatever its step names, all of them included (a drill with --connect refuses it)', () => {
    expect(step.server?.({ target: 'all' })).toBe('all');
    expect(step.server?.({ target: 'zk-leader' })).toBe('zk-leader');
  });

  it('names servers only: a contender is spawned anew, not restarted', () => {
    let allowed: readonly string[] = [];
    const ctx: StepBuild = {
      failpoints: null,
      target: (name, _field, kinds = []) => {
        allowed = kinds;
        return name;
      },
      problem: () => undefined,
    };
    expect(step.build('zk1', ctx)).toEqual({ target: 'zk1' });
    expect(allowed).toEqual(['zk-leader', 'server', 'all']);
    expect(step.describe({ target: 'zk1' })).toBe('restart zk1');
  });
});
