import { describe, expect, it } from 'vitest';
import { buildHistory } from '../../../src/drills/judge/history.js';
import { joinedCount, leaderAt, leaderWords, stateAt, waitConditionsHold } from '../../../src/drills/judge/queries.js';
import { laneSegments } from '../../../src/drills/report/segments.js';
import { ev, joinAll, lab } from './fixtures.js';

const h = buildHistory(
  [
    ...joinAll(0, ['c1', 'c2', 'c3']),
    ev(100, 'c1', 'leader', { token: 10 }),
    ev(3000, 'c2', 'leader', { token: 11 }),
    ev(5001, 'c1', 'expired'),
    ev(5200, 'c1', 'connected', { session: 's-c1-b' }),
    ev(5300, 'c1', 'joined', { session: 's-c1-b' }),
    ev(5300, 'c1', 'follower', { session: 's-c1-b' }),
    ev(6000, 'c3', 'paused', { wasLeader: false }),
  ],
  [
    lab(1000, 'contender-paused', { contender: 'c1', pid: 1 }),
    lab(5000, 'contender-resumed', { contender: 'c1', pid: 1 }),
    lab(7000, 'contender-killed', { contender: 'c2', pid: 1, signal: 'SIGKILL' }),
  ],
  { end: 9000 },
);

describe('stateAt', () => {
  it.each([
    ['c1', 50, 'follower'],
    ['c1', 500, 'leader'],
    ['c1', 2000, 'frozen'],
    ['c1', 5000, 'leader'],
    ['c1', 5100, 'paused'],
    ['c1', 5300, 'follower'],
    ['c2', 3000, 'leader'],
    ['c2', 7000, 'dead'],
    ['c3', 6500, 'paused'],
  ] as const)('%s at %i is %s', (id, t, state) => {
    expect(stateAt(h, id, t)).toBe(state);
  });

  it('is undefined before the contender logged anything', () => {
    expect(stateAt(h, 'c1', -1)).toBeUndefined();
  });
});

describe('leaderAt', () => {
  it('prefers the highest token when a zombie still believes it leads', () => {
    expect(leaderAt(h, 4000)).toEqual({ contender: 'c2', token: 11, since: 3000 });
    expect(leaderAt(h, 500)?.contender).toBe('c1');
  });

  it('is null once the last leader is dead', () => {
    expect(leaderAt(h, 8000)).toBeNull();
  });
});

describe('leaderWords', () => {
  it('names a leading contender, or the session of another client ZooKeeper names, or nobody', () => {
    expect(leaderWords(h, 500)).toBe('c1 leads');
    expect(leaderWords(h, 8000)).toBe('nobody leads');
    // Against an ensemble outside the lab, a client that is none of the drill's contenders owns the leading znode.
    const outside = buildHistory(
      joinAll(0, ['c1', 'c2']),
      [
        lab(100, 'zk-leader', { path: '/election', leader: null, znode: null, session: null }),
        lab(200, 'zk-leader', { path: '/election', leader: null, znode: '/election/x-n_0000000003', session: '1f00a' }),
      ],
      { end: 10_000 },
    );
    expect(leaderWords(outside, 150)).toBe('nobody leads');
    expect(leaderWords(outside, 10_000)).toBe(
      "none of the drill's contenders leads: ZooKeeper names session 0x1f00a (/election/x-n_0000000003), " +
        'which is not one of them',
    );
  });
});

describe('joinedCount', () => {
  it('counts contenders alive and joined', () => {
    expect(joinedCount(h, 100)).toBe(3);
    expect(joinedCount(h, 7500)).toBe(2);
  });
});

describe('laneSegments', () => {
  // A new session (connected) ends the pause an expiry began, even before the contender has joined again.
  it('turns a lane into merged state stretches, flagging leadership believed while frozen', () => {
    expect(laneSegments(h, 'c1').map((s) => [s.start, s.end, s.state, s.believesLeader])).toEqual([
      [0, 100, 'follower', false],
      [100, 1000, 'leader', true],
      [1000, 5000, 'frozen', true],
      [5000, 5001, 'leader', true],
      [5001, 5200, 'paused', false],
      [5200, 9000, 'follower', false],
    ]);
    expect(laneSegments(h, 'c2').map((s) => s.state)).toEqual(['follower', 'leader', 'dead']);
  });
});

describe('waitConditionsHold', () => {
  it('needs every event-based condition to hold', () => {
    expect(waitConditionsHold({ leader: true, joined: 3 }, h, 500)).toBe(true);
    expect(waitConditionsHold({ leader: true, joined: 3 }, h, 7500)).toBe(false);
    expect(waitConditionsHold({ leader: false }, h, 8000)).toBe(true);
    expect(waitConditionsHold({ leaderIs: 'c2' }, h, 4000)).toBe(true);
    expect(waitConditionsHold({ leaderIs: 'c1' }, h, 4000)).toBe(false);
  });

  it('leaves server conditions to the runner', () => {
    expect(waitConditionsHold({ serving: 'zk1' }, h, 0)).toBe(true);
  });
});
