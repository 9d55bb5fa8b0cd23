import { describe, expect, it } from 'vitest';
import type { ExpectationContext } from '../../../src/drills/steps/expectations/kind.js';
import { evaluateExpectation } from '../../../src/drills/steps/expectations/registry.js';
import { buildHistory } from '../../../src/drills/judge/history.js';
import type { Expectation } from '../../../src/drills/steps/expectations/registry.js';
import { ev, joinAll, lab } from './fixtures.js';

const events = [
  ...joinAll(0, ['c1', 'c2', 'c3']),
  ev(100, 'c1', 'leader', { token: 10 }),
  ev(3000, 'c2', 'notified', { path: '/election/c1', type: 'deleted' }),
  ev(3050, 'c2', 'leader', { token: 11 }),
];
const labEvents = [lab(1000, 'contender-killed', { contender: 'c1', pid: 1, signal: 'SIGKILL' })];

function judge(e: Expectation, now: number, extra: Partial<ExpectationContext> = {}) {
  const history = buildHistory(
    events.filter((x) => x.t <= now),
    labEvents.filter((x) => x.t <= now),
    { end: now },
  );
  return evaluateExpectation(e, {
    history,
    stepStart: 1000,
    lastFault: { t: 1000, leaderBefore: 'c1' },
    now,
    ...extra,
  });
}

describe('evaluateExpectation', () => {
  it('newLeaderWithin waits, then passes on a claim by another contender', () => {
    const e: Expectation = { kind: 'newLeaderWithin', ms: 3000 };
    expect(judge(e, 2000).status).toBe('pending');
    expect(judge(e, 3100)).toEqual({ status: 'passed', detail: 'c2 leads 2.05s after the fault' });
  });

  it('newLeaderWithin fails when the deadline passes first', () => {
    expect(judge({ kind: 'newLeaderWithin', ms: 1500 }, 2600).status).toBe('failed');
  });

  it('newLeaderWithin fails without a fault step before it', () => {
    expect(judge({ kind: 'newLeaderWithin', ms: 1500 }, 2600, { lastFault: undefined }).status).toBe('failed');
  });

  it('noLeaderChange passes at its deadline, fails on another claim', () => {
    expect(judge({ kind: 'noLeaderChange', ms: 1000 }, 1100, { stepStart: 200 }).status).toBe('pending');
    expect(judge({ kind: 'noLeaderChange', ms: 1000 }, 1300, { stepStart: 200 })).toEqual({
      status: 'passed',
      detail: 'c1 led throughout 1s',
    });
    expect(judge({ kind: 'noLeaderChange', ms: 3000 }, 3100, { stepStart: 200 })).toEqual({
      status: 'failed',
      detail: 'c2 claimed leadership at +3.05s',
    });
  });

  it('noLeaderChange: a leader paused by a disconnect as it starts, claiming again, is no change (observer-partition)', () => {
    const paused = [
      ...joinAll(0, ['c1', 'c2', 'c3']),
      ev(100, 'c1', 'leader', { token: 10 }),
      ev(900, 'c1', 'paused', { token: 10 }),
      ev(1500, 'c1', 'leader', { token: 10 }),
    ];
    const history = buildHistory(paused, [], { end: 4200 });
    const at = (now: number, others = paused) =>
      evaluateExpectation(
        { kind: 'noLeaderChange', ms: 3000 },
        { history: buildHistory(others, [], { end: now }), stepStart: 1000, now },
      );
    expect(history.intervals.some((i) => i.contender === 'c1' && i.start <= 1000 && i.end > 1000)).toBe(false);
    expect(at(4200)).toEqual({ status: 'passed', detail: 'c1 led throughout 3s' });
    expect(at(4200, [...paused, ev(2000, 'c2', 'leader', { token: 11 })]).status).toBe('failed');
  });

  it('leaderIs and leaderIsNot judge the leader now', () => {
    expect(judge({ kind: 'leaderIs', contender: 'c2' }, 3100).status).toBe('passed');
    expect(judge({ kind: 'leaderIs', contender: 'c1' }, 3100)).toEqual({ status: 'failed', detail: 'c2 leads' });
    expect(judge({ kind: 'leaderIsNot', contender: 'c1' }, 3100).status).toBe('passed');
    expect(judge({ kind: 'leaderIsNot', contender: 'c2' }, 3100).status).toBe('failed');
  });

  it('notificationsPerDeath waits for the window after the new claim to close', () => {
    const e: Expectation = { kind: 'notificationsPerDeath', max: 1 };
    // Before anyone takes over, the successor's notification may still be on its way.
    expect(judge(e, 2000).status).toBe('pending');
    expect(judge(e, 3100).status).toBe('pending');
    expect(judge(e, 4000).status).toBe('passed');
    expect(judge({ ...e, max: 0 }, 3100).status).toBe('failed');
  });

  it('state compares the contender state now', () => {
    expect(judge({ kind: 'state', contender: 'c1', state: 'dead' }, 3100).status).toBe('passed');
    expect(judge({ kind: 'state', contender: 'c3', state: 'leader' }, 3100)).toEqual({
      status: 'failed',
      detail: 'c3 is follower',
    });
  });
});
