import { describe, expect, it } from 'vitest';
import { checkExecutionsPerJob } from '../../../src/drills/judge/check-executions.js';
import { buildHistory } from '../../../src/drills/judge/history.js';
import { ev } from './fixtures.js';
import { ran, submitted, workers } from './job-fixtures.js';

describe('checkExecutionsPerJob', () => {
  const once = [...workers, ...ran('job-1', 'c1', 1010, 1500), ...ran('job-2', 'c3', 1010, 1600)];

  it('passes when each job ran to completion once', () => {
    const r = checkExecutionsPerJob(buildHistory(once, [submitted(1000, 'job-1', 'job-2')], { start: 0, end: 5000 }));
    expect(r.passed).toBe(true);
    expect(r.summary).toBe('no job ran to completion more than once (2 job(s))');
    expect(r.measurements.map((m) => m.value)).toEqual([1, 0]);
  });

  it('fails a job that ran twice, naming each run: a zombie worker and the one the job was given to', () => {
    const zombie = [
      ...once,
      ev(1010, 'c1', 'job-assigned', { job: 'job-3', worker: 'c3-1', attempt: 1, strategy: 'round-robin' }),
      ev(4000, 'c1', 'job-requeued', { job: 'job-3', from: 'c3-1', attempt: 2 }),
      ev(4010, 'c1', 'job-assigned', { job: 'job-3', worker: 'c2-1', attempt: 2, strategy: 'round-robin' }),
      ev(9000, 'c3', 'job-finished', { job: 'job-3', worker: 'c3-1', attempt: 1, ok: true, ms: 8000 }),
      ev(9005, 'c3', 'job-status', { job: 'job-3', worker: 'c3-1', attempt: 1, created: true, ttlMs: 30_000 }),
      ev(12_000, 'c2', 'job-finished', { job: 'job-3', worker: 'c2-1', attempt: 2, ok: true, ms: 8000 }),
      ev(12_005, 'c2', 'job-status', { job: 'job-3', worker: 'c2-1', attempt: 2, created: false, ttlMs: 30_000 }),
    ];
    const r = checkExecutionsPerJob(
      buildHistory(zombie, [submitted(1000, 'job-1', 'job-2', 'job-3')], { start: 0, end: 13_000 }),
    );
    expect(r.passed).toBe(false);
    expect(r.summary).toBe('1 of 3 job(s) ran to completion more than once (at most 2)');
    expect(r.details).toEqual([
      {
        level: 'violation',
        t: 12_000,
        message: 'job-3 ran to completion 2 times, over 1: c3-1 (attempt 1) at +9s, c2-1 (attempt 2) at +12s',
      },
    ]);
    expect(r.measurements.map((m) => m.value)).toEqual([2, 1]);
    expect(
      checkExecutionsPerJob(buildHistory(zombie, [submitted(1000, 'job-1', 'job-2', 'job-3')]), { max: 2 }).passed,
    ).toBe(true);
  });

  it('fails when no job was submitted at all', () => {
    expect(checkExecutionsPerJob(buildHistory(workers, [])).passed).toBe(false);
  });
});
