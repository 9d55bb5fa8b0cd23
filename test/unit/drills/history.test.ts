import { describe, expect, it } from 'vitest';
import { buildHistory } from '../../../src/drills/judge/history.js';
import { ev, joinAll, lab } from './fixtures.js';
import { contenderEvent, labEvent } from '../../helpers/events.js';

const base = joinAll(0, ['c1', 'c2']);

describe('buildHistory leadership intervals', () => {
  it.each([
    ['paused', ev(900, 'c1', 'paused', { wasLeader: true })],
    ['resigned', ev(900, 'c1', 'resigned')],
    ['expired', ev(900, 'c1', 'expired')],
    ['stopped', ev(900, 'c1', 'stopped')],
  ] as const)('ends at the contender’s own %s event', (reason, end) => {
    const h = buildHistory([...base, ev(100, 'c1', 'leader', { token: 7 }), end], []);
    expect(h.intervals).toEqual([
      { contender: 'c1', token: 7, session: 's-c1', start: 100, end: 900, endReason: reason },
    ]);
  });

  it('ends at the lab’s kill of that contender, not at a kill of another', () => {
    const h = buildHistory(
      [...base, ev(100, 'c1', 'leader', { token: 7 })],
      [
        lab(500, 'contender-killed', { contender: 'c2', pid: 1, signal: 'SIGKILL' }),
        lab(800, 'contender-killed', { contender: 'c1', pid: 1, signal: 'SIGKILL' }),
      ],
    );
    expect(h.intervals.map((i) => [i.contender, i.end, i.endReason])).toEqual([['c1', 800, 'killed']]);
  });

  it('runs to the end of history when nothing ends it', () => {
    const h = buildHistory([...base, ev(100, 'c1', 'leader', { token: 7 })], [], { end: 5000 });
    expect(h.intervals[0]).toMatchObject({ end: 5000, endReason: 'end-of-history' });
  });

  it('treats a repeated claim with the same token as the same interval, a new token as a new one', () => {
    const h = buildHistory(
      [
        ...base,
        ev(100, 'c1', 'leader', { token: 7 }),
        ev(300, 'c1', 'leader', { token: 7 }),
        ev(600, 'c1', 'leader', { token: 9 }),
      ],
      [],
      { end: 1000 },
    );
    expect(h.intervals.map((i) => [i.token, i.start, i.end, i.endReason])).toEqual([
      [7, 100, 600, 'reclaimed'],
      [9, 600, 1000, 'end-of-history'],
    ]);
  });

  it('does not end leadership when the lab freezes the leader', () => {
    const h = buildHistory(
      [...base, ev(100, 'c1', 'leader', { token: 7 })],
      [
        lab(500, 'contender-paused', { contender: 'c1', pid: 1 }),
        lab(900, 'contender-resumed', { contender: 'c1', pid: 1 }),
      ],
      { end: 2000 },
    );
    expect(h.intervals[0]?.endReason).toBe('end-of-history');
    expect(h.frozen).toEqual([{ contender: 'c1', start: 500, end: 900 }]);
  });
});

describe('buildHistory fault windows', () => {
  it('spans a partition until its heal and marks a kill as an instant', () => {
    const h = buildHistory(base, [
      lab(100, 'partition', { target: 'c1', description: 'isolate c1', mode: 'blackhole' }),
      lab(400, 'contender-killed', { contender: 'c2', pid: 1, signal: 'SIGKILL' }),
      lab(700, 'heal', { kind: 'partition', description: 'heal all', target: 'all' }),
    ]);
    expect(h.faults.map((f) => [f.kind, f.start, f.end, f.label, f.contenders])).toEqual([
      ['partition', 100, 700, 'isolate c1', ['c1']],
      ['contender-killed', 400, 400, 'kill c2 (SIGKILL)', ['c2']],
    ]);
  });

  it('counts the minority side of a split as cut off', () => {
    const h = buildHistory(base, [
      lab(100, 'partition', {
        groups: [
          ['zk1', 'c1'],
          ['zk2', 'zk3', 'c2'],
        ],
        description: 'split',
        mode: 'blackhole',
      }),
    ]);
    expect(h.faults[0]?.contenders).toEqual(['c1']);
    expect(h.faults[0]?.servers).toEqual(['zk1']);
  });
});

describe("history of programs that say nothing: leadership by ZooKeeper's view", () => {
  const zk = (t: number, leader: string | null) =>
    labEvent(t, 'zk-leader', { path: '/election', leader, znode: null, session: null });
  const started = (t: number, id: string) =>
    contenderEvent(t, id, 'started', {
      recipe: 'exec',
      path: '/election',
      sessionTimeoutMs: 2000,
      onDisconnect: 'program',
      connect: '',
    });

  it('leads while ZooKeeper names it, up to the next name or its kill; contenders with beliefs keep their own word', () => {
    const h = buildHistory(
      [started(0, 'c1'), started(0, 'c2'), contenderEvent(0, 'c3', 'joined'), contenderEvent(50, 'c3', 'follower')],
      [
        zk(100, 'c1'),
        zk(150, 'c1'),
        labEvent(400, 'contender-killed', { contender: 'c1', pid: 1, signal: 'SIGKILL' }),
        zk(2400, 'c2'),
        zk(3000, 'c3'),
      ],
      { end: 4000 },
    );
    expect(h.intervals.map((i) => [i.contender, i.start, i.end, i.endReason, i.byZooKeeper])).toEqual([
      ['c1', 100, 400, 'killed', true],
      ['c2', 2400, 3000, 'zookeeper', true],
    ]);
  });
});
