import { describe, expect, it } from 'vitest';
import { pause } from '../../../../src/faults/kinds/pause.js';
import { ownSteps, windowRuleOf } from '../../../../src/faults/kinds/registry.js';
import type { StepRun } from '../../../../src/faults/kinds/step.js';
import type { LabPaths } from '../../../../src/lab/paths.js';
import { labEvent } from '../../../helpers/events.js';

describe('the pause as a kind', () => {
  it("keeps a contender's window open until it is resumed, killed or stopped", () => {
    const rule = windowRuleOf('contender-paused')!;
    const ev = labEvent(1, 'contender-paused', { contender: 'c1', pid: 9, scope: 'node' });
    expect([rule.label(ev), rule.hits(ev)]).toEqual(['pause c1', ['c1']]);
    expect(rule.endedBy?.(ev, labEvent(2, 'contender-resumed', { contender: 'c1', pid: 9 }))).toBe(true);
    expect(rule.endedBy?.(ev, labEvent(2, 'contender-killed', { contender: 'c1', pid: 9, signal: 'SIGKILL' }))).toBe(
      true,
    );
    expect(rule.endedBy?.(ev, labEvent(2, 'contender-stopped', { contender: 'c1' }))).toBe(true);
    expect(rule.endedBy?.(ev, labEvent(2, 'contender-resumed', { contender: 'c2', pid: 8 }))).toBe(false);
  });

  it("keeps a server's window open until it is resumed or killed", () => {
    const rule = windowRuleOf('server-paused')!;
    const ev = labEvent(1, 'server-paused', { server: 'zk1' });
    expect(rule.endedBy?.(ev, labEvent(2, 'server-resumed', { server: 'zk1' }))).toBe(true);
    expect(rule.endedBy?.(ev, labEvent(2, 'server-killed', { server: 'zk1', signal: 'SIGKILL' }))).toBe(true);
    expect(rule.endedBy?.(ev, labEvent(2, 'server-resumed', { server: 'zk2' }))).toBe(false);
  });

  it('is applied and lifted on processes, the same on every backend', () => {
    expect(pause.backends.proxy).toBe(pause.backends.ns);
    expect(pause.backends.ns.lift).toBeDefined();
  });

  it('has a step for each way: pause (of a node or a program) and resume', () => {
    expect(pause.steps.map((s) => s.key)).toEqual(['pause', 'resume']);
    const pauseStep = ownSteps().find((s) => s.key === 'pause')!;
    expect(pauseStep.describe({ target: 'c1', scope: 'process' })).toBe('pause c1 (its program alone)');
  });

  it('resumes all of nothing when the run froze nothing', async () => {
    const resumeStep = ownSteps().find((s) => s.key === 'resume')!;
    const ctx = { paths: {} as LabPaths, frozen: new Set<string>() } as unknown as StepRun;
    expect(await resumeStep.run(ctx, { target: 'all' })).toEqual({
      description: 'resume all',
      detail: 'nothing was frozen',
    });
  });

  it('resumes paused as it resumes all, as `zklab resume paused` does', async () => {
    const resumeStep = ownSteps().find((s) => s.key === 'resume')!;
    const ctx = { paths: {} as LabPaths, frozen: new Set<string>() } as unknown as StepRun;
    expect(await resumeStep.run(ctx, { target: 'paused' })).toEqual({
      description: 'resume paused',
      detail: 'nothing was frozen',
    });
  });
});
