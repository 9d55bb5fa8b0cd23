import type { CheckResult } from '../../../src/drills/judge/check-types.js';
import type { DrillResult } from '../../../src/drills/judge/result.js';
import { acts, ev, joinAll, lab } from './fixtures.js';

export const HOSTILE = '<script>alert("x")</script>&';

const T0 = 1_700_000_000_000;

const pass = (name: CheckResult['name'], summary: string): CheckResult => ({
  name,
  passed: true,
  summary,
  details: [],
  measurements: [],
});

/** c1 leads, is frozen and replaced by c2, c3 is partitioned and healed, c2 is killed and c3 takes over. */
export function sampleResult(overrides: Partial<DrillResult> = {}): DrillResult {
  const t = (ms: number) => T0 + ms;
  return {
    drill: {
      name: 'zombie-leader',
      description: `a zombie ${HOSTILE}`,
      file: 'templates/drills/zombie-leader.yaml',
      expectFailure: ['singleLeader'],
    },
    startedAt: t(0),
    endedAt: t(12_000),
    steps: [
      {
        index: '1',
        line: 12,
        kind: 'wait',
        description: 'wait for a leader (up to 10s)',
        start: t(0),
        end: t(300),
        outcome: 'ok',
      },
      {
        index: '2',
        line: 13,
        kind: 'pause',
        description: `pause leader → c1 ${HOSTILE}`,
        start: t(1000),
        end: t(1000),
        outcome: 'ok',
      },
      {
        index: '3',
        line: 14,
        kind: 'expect',
        description: 'expect a new leader within 3s',
        start: t(1000),
        end: t(3000),
        outcome: 'ok',
      },
      {
        index: '4',
        line: 15,
        kind: 'kill',
        description: 'kill leader → c2',
        start: t(7000),
        end: t(7000),
        outcome: 'ok',
      },
    ],
    expectations: [
      {
        step: '3',
        line: 14,
        description: 'a new leader within 3s',
        passed: true,
        detail: `c2 leads 2s after the fault ${HOSTILE}`,
        t: t(3000),
      },
    ],
    checks: [
      {
        name: 'singleLeader',
        passed: false,
        summary: '1 violation(s): 1 stale leader(s) acted',
        details: [{ level: 'violation', t: t(6002), message: `stale leader acted: c1 ${HOSTILE}` }],
        measurements: [{ name: 'stale actions', value: 1, unit: 'count' }],
      },
      {
        name: 'failoverTime',
        passed: true,
        summary: '2 failover(s), slowest 2s',
        details: [],
        measurements: [
          { name: 'failover after pause c1', value: 2000, unit: 'ms', t: t(1000) },
          { name: 'failover after kill c2 (SIGKILL)', value: 1500, unit: 'ms', t: t(7000) },
        ],
      },
      pass('herdSize', '2 leader death(s), at most 1 notified'),
    ],
    contenderEvents: [
      ...joinAll(t(0), ['c1', 'c2', 'c3']),
      ev(t(200), 'c1', 'leader', { token: 10 }),
      ...acts('c1', 10, t(200), t(1000)),
      ev(t(3000), 'c2', 'leader', { token: 11 }),
      ev(t(6002), 'c1', 'act', { token: 10 }),
      ev(t(6010), 'c1', 'expired'),
      ev(t(8500), 'c3', 'leader', { token: 12 }),
    ],
    labEvents: [
      lab(t(1000), 'contender-paused', { contender: 'c1', pid: 1 }),
      lab(t(4000), 'partition', { target: 'c3', description: `isolate c3 ${HOSTILE}`, mode: 'blackhole' }),
      lab(t(5000), 'heal', { kind: 'partition', description: 'heal all', target: 'all' }),
      lab(t(6000), 'contender-resumed', { contender: 'c1', pid: 1 }),
      lab(t(7000), 'contender-killed', { contender: 'c2', pid: 1, signal: 'SIGKILL' }),
    ],
    ...overrides,
  };
}
