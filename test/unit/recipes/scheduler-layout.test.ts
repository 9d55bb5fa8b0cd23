import { describe, expect, it } from 'vitest';
import {
  contenderOfWorker,
  decodeJobData,
  decodeStatusData,
  encodeJobData,
  encodeStatusData,
  parseJobSpec,
  schedulerLayout,
  schedulerRootOf,
  sortWorkers,
  workerName,
} from '../../../src/recipes/scheduler-layout.js';
import { runJob } from '../../../src/recipes/scheduler-jobs.js';
import { jobSpecFromArgs } from '../../../src/cli/commands/jobs.js';

describe('the scheduler layout', () => {
  it('puts every part under the root, and finds the root again from the election path', () => {
    const l = schedulerLayout('/scheduler/');
    expect(l).toEqual({
      root: '/scheduler',
      election: '/scheduler/election',
      workers: '/scheduler/workers',
      jobs: '/scheduler/jobs',
      assignments: '/scheduler/assignments',
      status: '/scheduler/status',
      rotation: '/scheduler/rotation',
    });
    expect(schedulerRootOf(l.election)).toBe('/scheduler');
    expect(schedulerRootOf('/election')).toBe('/');
    expect(schedulerRootOf('/x/leaders')).toBeNull();
  });

  it('names workers by contender and registration, and orders them by contender number', () => {
    expect(workerName('c3', 2)).toBe('c3-2');
    expect(contenderOfWorker('c12-3')).toBe('c12');
    expect(contenderOfWorker('nobody')).toBeNull();
    expect(sortWorkers(['c10-1', 'c2-2', 'c2-1', 'c1-4'])).toEqual(['c1-4', 'c2-1', 'c2-2', 'c10-1']);
  });
});

describe('jobs are data', () => {
  it('accepts the three kinds and refuses anything else with a reason', () => {
    expect(parseJobSpec({ kind: 'sleep', ms: 200 })).toEqual({ kind: 'sleep', ms: 200 });
    expect(parseJobSpec({ kind: 'sum', args: [2, 3] })).toEqual({ kind: 'sum', args: [2, 3] });
    expect(parseJobSpec({ kind: 'fail' })).toEqual({ kind: 'fail' });
    expect(parseJobSpec({ kind: 'exec', command: 'rm -rf /' })).toEqual({
      error: expect.stringMatching(/unknown job kind "exec"/),
    });
    expect(parseJobSpec({ kind: 'sleep', ms: -1 })).toHaveProperty('error');
    expect(parseJobSpec({ kind: 'sum', args: ['2'] })).toHaveProperty('error');
    expect(parseJobSpec('sleep')).toHaveProperty('error');
  });

  it('round-trips job and status data, and reads foreign bytes as nothing', () => {
    const job = { spec: { kind: 'sum' as const, args: [2, 3] }, submittedAt: 5, attempt: 2 };
    expect(decodeJobData(encodeJobData(job))).toEqual(job);
    expect(decodeJobData('{"spec":{"kind":"exec"},"submittedAt":1,"attempt":1}')).toBeNull();
    expect(decodeJobData('not json')).toBeNull();
    const status = {
      job: 'job-1',
      worker: 'c1-1',
      contender: 'c1',
      attempt: 1,
      ok: true,
      result: 5,
      startedAt: 1,
      endedAt: 2,
      ttlMs: 30_000,
    };
    expect(decodeStatusData(encodeStatusData(status))).toEqual(status);
    expect(decodeStatusData('Completed')).toBeNull();
    expect(
      decodeStatusData('{"job":"j","worker":"w","contender":"c","attempt":1,"ok":true,"startedAt":1,"endedAt":2}'),
    ).toBeNull();
  });

  it("runs a job by interpreting it: the seed's sum, a failure on request, a sleep", async () => {
    expect(await runJob({ kind: 'sum', args: [2, 3] })).toEqual({ ok: true, result: 5 });
    expect(await runJob({ kind: 'fail' })).toEqual({ ok: false, error: expect.any(String) });
    const t0 = Date.now();
    expect(await runJob({ kind: 'sleep', ms: 30 })).toEqual({ ok: true });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(25);
  });

  it('builds a job from the command line, refusing what no worker could run', () => {
    expect(jobSpecFromArgs({})).toEqual({ kind: 'sleep', ms: 200 });
    expect(jobSpecFromArgs({ kind: 'sleep', ms: '0' })).toEqual({ kind: 'sleep', ms: 0 });
    expect(jobSpecFromArgs({ kind: 'sleep', ms: '0s' })).toEqual({ kind: 'sleep', ms: 0 });
    expect(jobSpecFromArgs({ kind: 'sleep', ms: '1.5s' })).toEqual({ kind: 'sleep', ms: 1500 });
    expect(jobSpecFromArgs({ kind: 'sum', args: '4, 5' })).toEqual({ kind: 'sum', args: [4, 5] });
    expect(() => jobSpecFromArgs({ kind: 'shell' })).toThrow(/unknown job kind "shell"/);
    expect(() => jobSpecFromArgs({ kind: 'sum', ms: '3' })).toThrow(/--ms applies to sleep jobs/);
    expect(() => jobSpecFromArgs({ kind: 'sleep', ms: '-3' })).toThrow(/--ms/);
    expect(() => jobSpecFromArgs({ kind: 'sum', args: '' })).toThrow(/not a list of numbers/);
  });
});
