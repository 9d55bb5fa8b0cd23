import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { listBuiltinDrills, resolveDrill } from '../../../src/drills/format/builtins.js';
import type { Step } from '../../../src/drills/steps/registry.js';
import { BUILTIN_DRILLS } from '../../helpers/builtin-drills.js';

const LESSONS = BUILTIN_DRILLS;
const SCHEDULER = LESSONS.filter((n) => n.startsWith('scheduler-'));

const kinds = (steps: readonly Step[]): string[] =>
  steps.flatMap((s) => (s.kind === 'repeat' ? [s.kind, ...kinds(s.steps)] : [s.kind]));

describe('built-in drills', () => {
  it('has one drill per lesson', () => {
    expect(listBuiltinDrills()).toEqual(LESSONS);
  });

  it.each(LESSONS)('%s validates and is named after its file', (name) => {
    const drill = resolveDrill(name);
    expect(drill.name).toBe(name);
    expect(drill.description).toBeTruthy();
    expect(kinds(drill.steps)[0]).toBe('wait');
    expect(kinds(drill.steps)).toContain('expect');
  });

  it('marks split-brain as a drill singleLeader must fail', () => {
    const drill = resolveDrill('split-brain');
    expect(drill.contenders.onDisconnect).toBe('ignore');
    expect(drill.expectFailure).toEqual(['singleLeader']);
  });

  it('expects only split-brain, kazoo, the herd half of the comparison, the zombie and hung workers, the sticky priority hand-over and some variants to fail a check', () => {
    const failing = LESSONS.filter((n) => resolveDrill(n).expectFailure.length > 0);
    expect(failing).toEqual([
      'clock-server-jump',
      'herd-vs-predecessor-herd',
      'kazoo-leader-isolated',
      'priority-handover',
      'scheduler-hung-worker',
      'scheduler-zombie-worker',
      'split-brain',
    ]);
    expect(resolveDrill('priority-handover').expectFailure).toEqual(['preemption']);
    const variants = (name: string) => (resolveDrill(name).variants ?? []).map((v) => [v.name, v.expectFailure]);
    expect(variants('lock-zombie-holder')).toEqual([
      ['fencing-on', ['mutualExclusion']],
      ['fencing-off', ['mutualExclusion', 'fencedWrites']],
    ]);
    expect(variants('lock-herd-vs-queue')).toEqual([
      ['queue', []],
      ['herd', ['notificationsPerRelease']],
    ]);
    expect(resolveDrill('scheduler-zombie-worker').expectFailure).toEqual(['executionsPerJob']);
    expect(resolveDrill('scheduler-hung-worker').expectFailure).toEqual(['noLostJobs']);
    for (const name of ['curator-leader-isolated', 'curator-clock-back', 'curator-clock-forward']) {
      const curator = resolveDrill(name).variants ?? [];
      expect(curator.map((v) => [v.name, v.contenders.curatorErrorPolicy, v.expectFailure])).toEqual([
        ['standard', 'standard', []],
        ['session', 'session', ['singleLeader']],
      ]);
    }
    // CURATOR-696 is no question of the error policy: both lead twice.
    expect(variants('curator-696')).toEqual([
      ['standard', ['singleLeader']],
      ['session', ['singleLeader']],
    ]);
    expect(resolveDrill('clock-server-jump').expectFailure).toEqual(['statusTtl']);
    expect(variants('clock-drift')).toEqual([
      ['recipe', []],
      ['wall-lease', ['singleLeader']],
    ]);
  });

  it.each(SCHEDULER)('%s runs scheduler workers on a 3-server lab with 2s sessions and judges jobs', (name) => {
    const drill = resolveDrill(name);
    expect(drill.ensemble).toEqual({ servers: 3, observers: 0, tick: 200, net: 'proxy' });
    expect(drill.contenders).toMatchObject({
      recipe: 'predecessor',
      sessionTimeoutMs: 2000,
      scheduler: { root: '/scheduler' },
    });
    expect(kinds(drill.steps)).toContain('expect');
    expect(kinds(drill.steps).some((k) => k === 'jobs')).toBe(true);
    expect(Object.keys(drill.checks).some((c) => ['noLostJobs', 'executionsPerJob', 'statusTtl'].includes(c))).toBe(
      true,
    );
    // Every lesson says which property holds or breaks.
    expect(drill.description).toMatch(/lost|twice|once|TTL/);
  });

  it('streams the jobs of scheduler-leader-dies so that the kill lands in the stream', () => {
    const steps = resolveDrill('scheduler-leader-dies').steps;
    const jobs = steps.find((s) => s.kind === 'jobs');
    expect(jobs).toMatchObject({ count: 30, spec: { kind: 'sleep', ms: 1000 }, over: 4000 });
    expect(kinds(steps).indexOf('kill')).toBeGreaterThan(kinds(steps).indexOf('jobs'));
  });

  it('crashes the leader at the failpoints on both sides of the assignment multi', () => {
    const fps = resolveDrill('scheduler-atomic-assign').steps.filter((s) => s.kind === 'failpoint');
    expect(fps.map((s) => [s.target, s.at, s.action])).toEqual([
      ['leader', 'before-assign', 'crash'],
      ['leader', 'after-assign', 'crash'],
    ]);
  });

  it('runs the herd comparison with the same steps and bounds on both recipes', () => {
    const herd = resolveDrill('herd-vs-predecessor-herd');
    const chain = resolveDrill('herd-vs-predecessor-chain');
    expect([herd.contenders.recipe, chain.contenders.recipe]).toEqual(['herd', 'predecessor']);
    expect(kinds(herd.steps)).toEqual(kinds(chain.steps));
    expect(herd.checks.herdSize).toEqual(chain.checks.herdSize);
  });

  it('rejects an unknown built-in drill by listing the real ones', () => {
    const err = (() => {
      try {
        resolveDrill('nope');
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).message).toBe('no built-in drill named nope');
    expect((err as UsageError).hint).toContain('zombie-leader');
  });
});
