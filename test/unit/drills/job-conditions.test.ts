import { describe, expect, it } from 'vitest';
import { evaluateExpectation } from '../../../src/drills/steps/expectations/registry.js';
import { buildHistory } from '../../../src/drills/judge/history.js';
import { leaderAt, stateAt, waitConditionsHold } from '../../../src/drills/judge/queries.js';
import type { Expectation } from '../../../src/drills/steps/expectations/registry.js';
import { ev, lab } from './fixtures.js';
import { ran, submitted, workers } from './job-fixtures.js';

const events = [
  ...workers,
  ...ran('job-1', 'c1', 1010, 1500),
  ...ran('job-2', 'c2', 1010, 2500),
  ...ran('job-3', 'c3', 1010, 4000),
];
const history = (now: number) =>
  buildHistory(
    events.filter((e) => e.t <= now),
    [submitted(1000, 'job-1', 'job-2', 'job-3')],
    { start: 0, end: now },
  );

describe('allJobsDoneWithin', () => {
  const e: Expectation = { kind: 'allJobsDoneWithin', ms: 5000 };
  const judge = (now: number, streaming = false) =>
    evaluateExpectation(e, { history: history(now), stepStart: 2000, now, streaming });

  it('waits while jobs lack their status, then passes once all have it', () => {
    expect(judge(3000)).toEqual({ status: 'pending', detail: '1 of 3 job(s) without a status' });
    expect(judge(4100)).toEqual({ status: 'passed', detail: '3 job(s) done, the last 2s after this step' });
  });

  it('waits for a stream that is still submitting, even when every job so far is done', () => {
    expect(judge(4100, true)).toEqual({
      status: 'pending',
      detail: '0 of 3 job(s) without a status, a stream still submitting',
    });
  });

  it('fails at its bound naming the jobs without a status and where they were last', () => {
    const h = buildHistory(
      events.filter((x) => x.t < 4000),
      [submitted(1000, 'job-1', 'job-2', 'job-3')],
      { start: 0, end: 7100 },
    );
    expect(evaluateExpectation(e, { history: h, stepStart: 2000, now: 7100 })).toEqual({
      status: 'failed',
      detail: '1 of 3 job(s) without a status after 5s: job-3 (last: started on c3-1 (attempt 1) at +1.01s)',
    });
  });

  it('fails at once when no job was submitted', () => {
    const h = buildHistory(workers, [], { start: 0, end: 100 });
    expect(evaluateExpectation(e, { history: h, stepStart: 100, now: 100 }).status).toBe('failed');
  });
});

describe('the jobsDone wait condition', () => {
  it('counts jobs with their status', () => {
    expect(waitConditionsHold({ jobsDone: 2 }, history(3000), 3000)).toBe(true);
    expect(waitConditionsHold({ jobsDone: 3 }, history(3000), 3000)).toBe(false);
  });

  it('true: every job submitted so far, none still streaming', () => {
    expect(waitConditionsHold({ jobsDone: true }, history(3000), 3000)).toBe(false);
    expect(waitConditionsHold({ jobsDone: true }, history(4100), 4100)).toBe(true);
    expect(waitConditionsHold({ jobsDone: true }, history(4100), 4100, { streaming: true })).toBe(false);
    expect(waitConditionsHold({ jobsDone: true }, buildHistory(workers, []), 100)).toBe(false);
  });
});

describe('a contender that crashes itself at a failpoint', () => {
  const crash = [
    ...workers,
    ev(2000, 'c1', 'failpoint', { at: 'before-assign', action: 'crash' }),
    ev(4500, 'c2', 'leader', { token: 11 }),
  ];

  it('is dead from then on, and leads no more, though the lab logged no kill', () => {
    const h = buildHistory(crash, [], { start: 0, end: 6000 });
    expect(leaderAt(h, 1900)?.contender).toBe('c1');
    expect(leaderAt(h, 3000)).toBeNull();
    expect(leaderAt(h, 5000)?.contender).toBe('c2');
    expect(stateAt(h, 'c1', 3000)).toBe('dead');
    expect(h.intervals.find((i) => i.contender === 'c1')).toMatchObject({ end: 2000, endReason: 'killed' });
  });

  it('that freezes itself is frozen until the lab resumes it', () => {
    const pause = [...workers, ev(2000, 'c2', 'failpoint', { at: 'before-status', action: 'pause' })];
    const h = buildHistory(pause, [lab(5000, 'contender-resumed', { contender: 'c2', pid: 2 })], {
      start: 0,
      end: 6000,
    });
    expect(h.frozen).toEqual([{ contender: 'c2', start: 2000, end: 5000 }]);
    expect(stateAt(h, 'c2', 3000)).toBe('frozen');
    expect(stateAt(h, 'c2', 5500)).toBe('follower');
  });
});
