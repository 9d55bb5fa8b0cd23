import { describe, expect, it } from 'vitest';
import { failpoint } from '../../../../src/faults/kinds/failpoint.js';
import type { StepBuild } from '../../../../src/faults/kinds/step.js';

/** A build context whose contenders have `failpoints`; the problems it was told, as [field, message]. */
function building(failpoints: readonly string[] | null) {
  const problems: [string, string][] = [];
  const ctx: StepBuild = {
    failpoints,
    target: (name) => name,
    problem: (message, field = []) => problems.push([field.join('.'), message]),
  };
  return { ctx, problems };
}

describe('the failpoint as a kind', () => {
  const step = failpoint.steps[0]!;
  const value = { target: 'leader', at: 'before-assign', action: 'crash' } as const;

  it('arms a fault for later: newLeaderWithin does not measure from its step', () => {
    expect(step.fault).toBe(false);
    expect(step.describe(value)).toBe('failpoint in leader: crash at before-assign');
  });

  it("checks the point against the contenders' failpoints when the drill is read", () => {
    const none = building([]);
    step.build(value, none.ctx);
    expect(none.problems).toEqual([
      [
        '',
        "these contenders have no failpoints (zklab's own recipes have them: predecessor, herd, and workload: scheduler)",
      ],
    ]);
    const other = building(['after-create-before-watch']);
    step.build(value, other.ctx);
    expect(other.problems).toEqual([
      ['at', '"before-assign" is not a failpoint of these contenders (use one of: after-create-before-watch)'],
    ]);
    const unknown = building(null);
    expect(step.build(value, unknown.ctx)).toEqual(value);
    expect(unknown.problems).toEqual([]);
  });
});
