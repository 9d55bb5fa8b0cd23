import { describe, expect, it } from 'vitest';
import { checkLiveness } from '../../../src/drills/judge/check-liveness.js';
import { buildHistory } from '../../../src/drills/judge/history.js';
import { ev, joinAll, lab } from './fixtures.js';

const start = [...joinAll(0, ['c1', 'c2', 'c3']), ev(100, 'c1', 'leader', { token: 10 })];

describe('checkLiveness', () => {
  it('measures how long after a leader kill a leader exists again', () => {
    const h = buildHistory(
      [...start, ev(3000, 'c2', 'leader', { token: 11 })],
      [lab(1000, 'contender-killed', { contender: 'c1', pid: 1, signal: 'SIGKILL' })],
    );
    const r = checkLiveness(h);
    expect(r.passed).toBe(true);
    expect(r.measurements.map((m) => m.value)).toEqual([2000]);
  });

  it('sees no gap when a follower is killed', () => {
    const h = buildHistory(start, [lab(1000, 'contender-killed', { contender: 'c3', pid: 1, signal: 'SIGKILL' })], {
      end: 5000,
    });
    expect(checkLiveness(h).measurements.map((m) => m.value)).toEqual([0]);
  });

  it('fails when no leader comes back before the history ends', () => {
    const h = buildHistory(start, [lab(1000, 'contender-killed', { contender: 'c1', pid: 1, signal: 'SIGKILL' })], {
      end: 9000,
    });
    const r = checkLiveness(h);
    expect(r.passed).toBe(false);
    expect(r.details[0]?.message).toMatch(/no leader after kill c1 \(SIGKILL\) at \+1s \(history ends 8s later\)/);
  });

  it('fails when the leader comes back later than the bound', () => {
    const h = buildHistory(
      [...start, ev(7000, 'c2', 'leader', { token: 11 })],
      [lab(1000, 'contender-killed', { contender: 'c1', pid: 1, signal: 'SIGKILL' })],
    );
    expect(checkLiveness(h, { within: 5000 }).passed).toBe(false);
    expect(checkLiveness(h, { within: 6000 }).passed).toBe(true);
  });

  it('does not count a frozen leader as a leader', () => {
    const h = buildHistory(
      [...start, ev(4000, 'c2', 'leader', { token: 11 })],
      [
        lab(1000, 'contender-paused', { contender: 'c1', pid: 1 }),
        lab(8000, 'contender-resumed', { contender: 'c1', pid: 1 }),
      ],
    );
    expect(checkLiveness(h).measurements.map((m) => m.value)).toEqual([3000]);
  });

  it('does not count a partitioned leader that keeps believing', () => {
    const h = buildHistory(
      [...start, ev(3500, 'c3', 'leader', { token: 12 })],
      [lab(1000, 'partition', { target: 'c1', description: 'isolate c1', mode: 'blackhole' })],
      { end: 6000 },
    );
    expect(checkLiveness(h).measurements).toEqual([
      { name: 'leader again after isolate c1', value: 2500, unit: 'ms', t: 1000 },
    ]);
  });
});

describe('checkLiveness over a rolling restart', () => {
  /** Each restart as the lab records it: the SIGKILL, then the server serving again. */
  const restart = (t: number, server: string) => [
    lab(t, 'server-killed', { server, signal: 'SIGKILL' }),
    lab(t + 1000, 'server-restarted', { servers: [server], unavailableMs: 1000 }),
  ];

  it('counts each restart once, with the leader pausing itself while its server is down as part of it', () => {
    const h = buildHistory(
      [
        ...start,
        // c1's server goes first: it pauses itself, reconnects with its session and leads again.
        ev(1010, 'c1', 'paused', { wasLeader: true, reason: 'disconnected' }),
        ev(1500, 'c1', 'leader', { token: 10 }),
        // zk3 led the quorum: everyone's connection drops for the election.
        ev(5010, 'c1', 'paused', { wasLeader: true, reason: 'disconnected' }),
        ev(5600, 'c1', 'leader', { token: 10 }),
      ],
      [...restart(1000, 'zk1'), ...restart(3000, 'zk2'), ...restart(5000, 'zk3')],
      { end: 8000 },
    );
    const r = checkLiveness(h);
    expect(r.passed).toBe(true);
    expect(r.summary).toBe('a leader within 30s after each of 3 fault(s)');
    expect(r.measurements.map((m) => [m.name, m.value])).toEqual([
      ['leader again after kill zk1 (SIGKILL)', 500],
      ['leader again after kill zk2 (SIGKILL)', 0],
      ['leader again after kill zk3 (SIGKILL)', 600],
    ]);
  });

  it('still counts a leader that paused itself with no fault of the lab about', () => {
    const h = buildHistory(
      [
        ...start,
        ev(2000, 'c1', 'paused', { wasLeader: true, reason: 'disconnected' }),
        ev(2600, 'c1', 'leader', { token: 10 }),
      ],
      restart(5000, 'zk2'),
      { end: 8000 },
    );
    expect(checkLiveness(h).measurements.map((m) => [m.name, m.value])).toEqual([
      ['leader again after c1 paused itself (disconnected)', 600],
      ['leader again after kill zk2 (SIGKILL)', 0],
    ]);
  });
});
