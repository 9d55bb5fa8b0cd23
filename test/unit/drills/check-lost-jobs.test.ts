import { describe, expect, it } from 'vitest';
import { checkNoLostJobs } from '../../../src/drills/judge/check-lost-jobs.js';
import { buildHistory } from '../../../src/drills/judge/history.js';
import { ev, lab } from './fixtures.js';
import { ran, submitted, workers } from './job-fixtures.js';

const value = (r: ReturnType<typeof checkNoLostJobs>, name: string) =>
  r.measurements.find((m) => m.name === name)?.value;

describe('checkNoLostJobs', () => {
  it('passes when every job submitted gets its status, and measures the slowest', () => {
    const h = buildHistory(
      [...workers, ...ran('job-1', 'c1', 1010, 1500), ...ran('job-2', 'c2', 1010, 3000)],
      [submitted(1000, 'job-1', 'job-2')],
      { start: 0, end: 5000 },
    );
    const r = checkNoLostJobs(h);
    expect(r.passed).toBe(true);
    expect(r.summary).toBe('all 2 job(s) got their status, the slowest 2s after submission');
    expect([value(r, 'jobs submitted'), value(r, 'jobs lost'), value(r, 'slowest job, submission to status')]).toEqual([
      2, 0, 2005,
    ]);
  });

  it('fails naming a job without a status and the last place it was seen', () => {
    const events = [
      ...workers,
      ...ran('job-1', 'c1', 1010, 1500),
      ev(1010, 'c1', 'job-assigned', { job: 'job-2', worker: 'c2-1', attempt: 1, strategy: 'round-robin' }),
      ev(1020, 'c2', 'job-started', { job: 'job-2', worker: 'c2-1', attempt: 1, kind: 'sleep' }),
      ev(1300, 'c2', 'job-finished', { job: 'job-2', worker: 'c2-1', attempt: 1, ok: true, ms: 280 }),
      ev(1301, 'c2', 'failpoint', { at: 'before-status', action: 'hang' }),
    ];
    const h = buildHistory(events, [submitted(1000, 'job-1', 'job-2', 'job-3')], { start: 0, end: 40_000 });
    const r = checkNoLostJobs(h);
    expect(r.passed).toBe(false);
    expect(r.summary).toBe('2 of 3 job(s) lost');
    expect(r.details.map((d) => d.message)).toEqual([
      'lost: job-2 (last: ran to completion on c2-1 (attempt 1) at +1.3s) has no status at the end',
      'lost: job-3 (last: never assigned: still queued) has no status at the end',
    ]);
    expect(value(r, 'jobs lost')).toBe(2);
  });

  it('says when the drill ended before the bound had passed', () => {
    const h = buildHistory(workers, [submitted(1000, 'job-1')], { start: 0, end: 3000 });
    expect(checkNoLostJobs(h, { within: 10_000 }).details[0]?.message).toMatch(
      /the drill ended before 10s had passed since its submission at \+1s: let it run longer/,
    );
  });

  it('counts the bound from the last fault before the status: a kill or a failpoint that fired', () => {
    const events = [...workers, ...ran('job-1', 'c2', 1010, 9000)];
    const late = buildHistory(events, [submitted(1000, 'job-1')], { start: 0, end: 10_000 });
    const r = checkNoLostJobs(late, { within: 5000 });
    expect(r.passed).toBe(false);
    expect(r.details[0]?.message).toBe('job-1 got its status 8s after its submission at +1s, over 5s');
    const killed = buildHistory(
      events,
      [submitted(1000, 'job-1'), lab(4500, 'contender-killed', { contender: 'c3', pid: 3, signal: 'SIGKILL' })],
      { start: 0, end: 10_000 },
    );
    expect(checkNoLostJobs(killed, { within: 5000 }).passed).toBe(true);
    const fired = buildHistory(
      [...events, ev(4500, 'c1', 'failpoint', { at: 'before-assign', action: 'crash' })],
      [submitted(1000, 'job-1')],
      { start: 0, end: 10_000 },
    );
    expect(checkNoLostJobs(fired, { within: 5000 }).passed).toBe(true);
  });

  it('does not let a fault that came once the job was already late excuse it', () => {
    const events = [...workers, ...ran('job-1', 'c2', 1010, 9000)];
    const h = buildHistory(
      events,
      [submitted(1000, 'job-1'), lab(8500, 'contender-killed', { contender: 'c3', pid: 3, signal: 'SIGKILL' })],
      { start: 0, end: 10_000 },
    );
    const r = checkNoLostJobs(h, { within: 5000 });
    expect(r.passed).toBe(false);
    expect(r.details[0]?.message).toBe('job-1 got its status 8s after its submission at +1s, over 5s');
  });

  it('fails when no job was submitted at all', () => {
    const r = checkNoLostJobs(buildHistory(workers, [], { start: 0, end: 1000 }));
    expect(r.passed).toBe(false);
    expect(r.summary).toBe('no jobs were submitted: nothing to judge (add a jobs step)');
  });
});
