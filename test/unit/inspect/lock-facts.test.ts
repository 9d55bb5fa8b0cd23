import { describe, expect, it } from 'vitest';
import { buildSnapshot } from '../../../src/inspect/build-snapshot.js';
import { isLockPath, lockResource } from '../../../src/inspect/lock-facts.js';
import type { SnapshotInput } from '../../../src/inspect/snapshot-input.js';
import { LOCK, configured, fencedHistory, heldLock, lockZnode, unfencedHistory, write } from './lock-raw.js';
import { NOW, contender, input, znode } from './raw-inputs.js';

const name = (seq: number): string => lockZnode(seq, { owner: '0', czxid: 0 }).path.slice(LOCK.length + 1);

/** c2 holds (#3, czxid 0x1a2, for 120 ms); c4 (#5) and c1 (#7) wait, all with one recipe. */
function lockInput(recipe: 'predecessor' | 'herd', f: Partial<SnapshotInput> = {}): SnapshotInput {
  return input({
    path: LOCK,
    ...heldLock(recipe),
    lockPaths: [LOCK],
    resourceEvents: fencedHistory(),
    ...f,
  });
}

const lockOf = (s: ReturnType<typeof buildSnapshot>, seq: number) => s.nodes.find((n) => n.name === name(seq))!.lock;

describe('a lock path', () => {
  it('is one the lab says its lock contenders loop on, not any sequential election', () => {
    expect(isLockPath(LOCK, [LOCK])).toBe(true);
    expect(isLockPath(LOCK, ['/other'])).toBe(false);
    const s = buildSnapshot(lockInput('predecessor', { lockPaths: [] }));
    expect(s.lock).toBeNull();
    expect(s.nodes.every((n) => n.lock === null)).toBe(true);
  });

  it('is held by its lowest live znode: token its czxid, held since its lock-acquired line (not the ctime)', () => {
    const s = buildSnapshot(lockInput('predecessor'));
    expect(s.lock?.holder).toEqual({
      znode: name(3),
      contender: 'c2',
      session: '0xa2',
      token: 0x1a2,
      since: NOW - 120,
      heldMs: 120,
      state: 'leader',
    });
    expect(s.lock?.queue.map((q) => [q.contender, q.sequence])).toEqual([
      ['c2', 3],
      ['c4', 5],
      ['c1', 7],
    ]);
    expect(s.lock?.recipes).toEqual(['predecessor']);
    expect(lockOf(s, 3)).toEqual({ role: 'holder', token: 0x1a2 });
    expect(s.problems).toEqual([]);
  });

  it('says nothing of how long a holder has held before its lock-acquired line for that token is read', () => {
    const held = heldLock('predecessor');
    const contenders = held.contenders.map((c) =>
      c.id === 'c2' ? { ...c, acquired: [{ token: 0x199, t: NOW - 900 }] } : c,
    );
    const s = buildSnapshot(lockInput('predecessor', { contenders }));
    expect(s.lock?.holder).toMatchObject({ contender: 'c2', since: null, heldMs: null });
  });

  it('predecessor: each waiter waits on the znode just before its own', () => {
    const s = buildSnapshot(lockInput('predecessor'));
    expect(lockOf(s, 5)).toEqual({
      role: 'waiter',
      waitsOn: { kind: 'predecessor', znode: name(3), owner: 'c2', state: 'leader' },
    });
    expect(lockOf(s, 7)).toEqual({
      role: 'waiter',
      waitsOn: { kind: 'predecessor', znode: name(5), owner: 'c4', state: 'follower' },
    });
  });

  it("herd: every waiter waits on the lock path's children", () => {
    const s = buildSnapshot(lockInput('herd'));
    expect(s.lock?.recipes).toEqual(['herd']);
    expect(s.lock?.queue.map((q) => q.waitsOn)).toEqual([null, { kind: 'children' }, { kind: 'children' }]);
  });

  it("says a waiter waits on a dead contender's lingering znode, and on nothing it can name for a stranger", () => {
    const base = lockInput('predecessor');
    const s = buildSnapshot({
      ...base,
      znodes: [
        ...base.znodes,
        lockZnode(4, { owner: 'a3', id: 'c3', czxid: 0x1a3 }),
        lockZnode(9, { owner: 'f00d', czxid: 0x1b0 }),
      ],
      contenders: [...base.contenders, contender('c3', 'a3', { alive: false })],
    });
    expect(lockOf(s, 5)).toEqual({
      role: 'waiter',
      waitsOn: { kind: 'predecessor', znode: name(4), owner: 'c3', state: 'expired' },
    });
    expect(lockOf(s, 9)).toEqual({ role: 'waiter', waitsOn: { kind: 'unknown' } });
  });

  it("takes each waiter's own recipe when the lock's contenders mix them", () => {
    const base = lockInput('predecessor');
    const s = buildSnapshot({
      ...base,
      contenders: base.contenders.map((c) => (c.id === 'c1' ? { ...c, recipe: 'herd' } : c)),
    });
    expect(s.lock?.recipes).toEqual(['herd', 'predecessor']);
    expect(lockOf(s, 5)).toMatchObject({ waitsOn: { kind: 'predecessor', owner: 'c2' } });
    expect(lockOf(s, 7)).toEqual({ role: 'waiter', waitsOn: { kind: 'children' } });
  });

  it('is free when its queue is empty', () => {
    const s = buildSnapshot(lockInput('predecessor', { znodes: [znode(LOCK)], contenders: [] }));
    expect(s.lock).toMatchObject({ holder: null, queue: [], recipes: [] });
  });
});

describe("the protected resource, from the lab's events", () => {
  it('with fencing: the last accepted write, the counts and the last refused one', () => {
    const r = lockResource(LOCK, fencedHistory());
    expect(r.state).toEqual({
      name: LOCK,
      fencing: true,
      token: 0x1a2,
      value: 57,
      holder: 'c2',
      accepted: 57,
      rejected: 1,
    });
    expect(r.lastAccepted).toMatchObject({ holder: 'c2', token: 0x1a2, value: 57 });
    expect(r.lastRefused).toEqual({
      t: NOW - 1000,
      holder: 'c1',
      token: 0x19f,
      value: 57,
      lastToken: 0x1a2,
      previousValue: 57,
    });
    expect(r.staleAccepted).toBe(0);
    expect(r.lastStale).toBeNull();
  });

  it('without fencing: a stale token accepted is counted as such, and the highest token is kept apart', () => {
    const r = lockResource(LOCK, unfencedHistory());
    expect(r.state).toEqual({
      name: LOCK,
      fencing: false,
      token: 0x28,
      value: 2,
      holder: 'c1',
      accepted: 3,
      rejected: 0,
    });
    expect(r.lastRefused).toBeNull();
    expect(r.staleAccepted).toBe(1);
    expect(r.lastStale).toMatchObject({ holder: 'c1', token: 0x20, lastToken: 0x28 });
    expect(r.lastAccepted).toEqual(r.lastStale);
  });

  it('before any write: set up, or not even that', () => {
    expect(lockResource(LOCK, [configured(true)])).toEqual({
      state: { name: LOCK, fencing: true, token: 0, value: 0, holder: null, accepted: 0, rejected: 0 },
      lastAccepted: null,
      lastRefused: null,
      staleAccepted: 0,
      lastStale: null,
    });
    expect(lockResource(LOCK, []).state).toBeNull();
  });

  it('ignores the resources of other locks', () => {
    const other = [
      configured(false, NOW, '/other'),
      write(
        { holder: 'c9', token: 9, value: 9, accepted: true, lastToken: 0, previousValue: 0, fencing: false },
        NOW,
        '/other',
      ),
    ];
    expect(lockResource(LOCK, [...fencedHistory(), ...other])).toEqual(lockResource(LOCK, fencedHistory()));
    expect(lockResource(LOCK, other).state).toBeNull();
  });
});

describe('--json', () => {
  it("prints the lock under a `lock` key, and each member's part in its row", () => {
    const json = JSON.parse(JSON.stringify(buildSnapshot(lockInput('predecessor'))));
    expect(json.scheduler).toBeNull();
    expect(Object.keys(json.lock)).toEqual(['path', 'recipes', 'holder', 'queue', 'resource']);
    expect(json.lock.queue[1]).toEqual({
      znode: name(5),
      sequence: 5,
      contender: 'c4',
      session: '0xa4',
      state: 'follower',
      waitsOn: { kind: 'predecessor', znode: name(3), owner: 'c2', state: 'leader' },
    });
    expect(json.lock.resource).toEqual({
      state: { name: LOCK, fencing: true, token: 0x1a2, value: 57, holder: 'c2', accepted: 57, rejected: 1 },
      lastAccepted: { t: NOW - 2000, holder: 'c2', token: 0x1a2, value: 57, lastToken: 0x138, previousValue: 56 },
      lastRefused: { t: NOW - 1000, holder: 'c1', token: 0x19f, value: 57, lastToken: 0x1a2, previousValue: 57 },
      staleAccepted: 0,
      lastStale: null,
    });
    expect(json.nodes[0].lock).toBeNull();
    expect(json.nodes[1].lock).toEqual({ role: 'holder', token: 0x1a2 });
  });

  it('keeps a plain election and a scheduler as they were', () => {
    expect(JSON.parse(JSON.stringify(buildSnapshot(input({}))))).toMatchObject({ lock: null, nodes: [{ lock: null }] });
    const scheduler = buildSnapshot(
      input({ path: '/s', znodes: [znode('/s')], schedulerRoots: ['/s'], lockPaths: ['/s'] }),
    );
    expect(scheduler.scheduler).not.toBeNull();
    expect(scheduler.lock).toBeNull();
  });
});
