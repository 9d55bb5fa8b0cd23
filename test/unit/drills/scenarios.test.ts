import { describe, expect, it } from 'vitest';
import { resolveDrill } from '../../../src/drills/format/builtins.js';
import { runChecks } from '../../../src/drills/judge/checkers.js';
import { buildHistory } from '../../../src/drills/judge/history.js';
import { drillPassed, type DrillResult } from '../../../src/drills/judge/result.js';
import { acts, ev, joinAll, lab } from './fixtures.js';

/** The leader c1 is cut off at 1000 and healed at 5000; its session expires at about 3000 and c2 takes over. */
function partitionedLeader(onDisconnect: 'pause' | 'ignore') {
  const c1 =
    onDisconnect === 'pause'
      ? [...acts('c1', 10, 200, 1600), ev(1600, 'c1', 'paused', { wasLeader: true, reason: 'disconnected' })]
      : acts('c1', 10, 200, 5000);
  const events = [
    ...joinAll(0, ['c1', 'c2', 'c3']),
    ev(200, 'c1', 'leader', { token: 10 }),
    ...c1,
    ev(3000, 'c2', 'notified', { path: '/election/c1', type: 'deleted' }),
    ev(3010, 'c2', 'leader', { token: 11 }),
    ...acts('c2', 11, 3010, 8000),
    ev(5050, 'c1', 'expired'),
  ];
  const labEvents = [
    lab(1000, 'partition', { target: 'c1', description: 'isolate c1', mode: 'blackhole' }),
    lab(5000, 'heal', { kind: 'partition', target: 'c1', description: 'heal c1' }),
  ];
  return { events, labEvents };
}

function judge(drillName: string, onDisconnect: 'pause' | 'ignore') {
  const drill = resolveDrill(drillName);
  const { events, labEvents } = partitionedLeader(onDisconnect);
  const checks = runChecks(buildHistory(events, labEvents, { start: 0, end: 8000 }), drill.checks);
  const result: DrillResult = {
    drill: { name: drill.name, file: drill.file, expectFailure: drill.expectFailure },
    startedAt: 0,
    endedAt: 8000,
    steps: [],
    expectations: [],
    checks,
    contenderEvents: events,
    labEvents,
  };
  return { checks, passed: drillPassed(result) };
}

describe('the partition drills judged on recorded histories', () => {
  it('client-partition: a leader that pauses on disconnect passes every check', () => {
    const { checks, passed } = judge('client-partition', 'pause');
    expect(checks.map((c) => [c.name, c.passed])).toEqual([
      ['singleLeader', true],
      ['failoverTime', true],
      ['liveness', true],
    ]);
    expect(passed).toBe(true);
  });

  it('split-brain: a leader that ignores the disconnect fails singleLeader, as the drill expects', () => {
    const { checks, passed } = judge('split-brain', 'ignore');
    expect(checks.map((c) => [c.name, c.passed])).toEqual([
      ['singleLeader', false],
      ['liveness', true],
    ]);
    expect(checks[0]?.summary).toBe('1 violation(s): 1 stale leader(s) acted');
    expect(passed).toBe(true);
  });

  it('split-brain: the drill itself fails when singleLeader does not catch a second leader', () => {
    expect(judge('split-brain', 'pause').passed).toBe(false);
  });
});
