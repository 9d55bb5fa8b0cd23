import { afterEach, describe, expect, it, vi } from 'vitest';
import { HerdLock, PredecessorLock } from '../../../src/recipes/lock.js';
import type { LockOptions, Recipe, RecipeIO, RecipeName, RecipeOptions } from '../../../src/recipes/types.js';
import type { FakeSession } from './fake-zk.js';
import { RecipeLab, type Logged } from './recipe-lab.js';

const LOCK = '/lock';
let lab: RecipeLab;

const until = (check: () => void, timeout = 3000): Promise<void> => vi.waitFor(check, { timeout, interval: 5 });
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
/** Timers (timeouts and intervals) alive in this process now. */
const liveTimers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

type LockClass = typeof PredecessorLock | typeof HerdLock;
const VARIANTS: readonly [RecipeName, LockClass][] = [
  ['predecessor', PredecessorLock],
  ['herd', HerdLock],
];

/** One ephemeral-sequential create under the lock path, and what the session owned there right after it. */
interface Created {
  readonly id: string;
  readonly session: string;
  readonly znode: string;
  readonly czxid: number;
  /** This session's znodes under the lock path just after the create: the recipe keeps one place per session. */
  readonly ownedAfter: number;
}
let created: Created[] = [];

function newLab(
  recipe: RecipeName,
  Lock: LockClass,
  lock: Partial<LockOptions> = {},
  base: Partial<RecipeOptions> = {},
): RecipeLab {
  created = [];
  lab = new RecipeLab((o: RecipeOptions, io: RecipeIO, d: string): Recipe => new Lock(o, io, d), {
    recipe,
    path: LOCK,
    sessionTimeoutMs: 4000,
    onDisconnect: 'pause',
    lock: { holdMs: 30, thinkMs: 10, fencing: true, ...lock },
    ...base,
  });
  return lab;
}

/** Records every create of the lock's znodes on each session of `id` (the first and those after an expiry). */
function tracked(id: string): (s: FakeSession) => void {
  return (s) => {
    const create = s.create.bind(s);
    s.create = async (path, data, mode) => {
      const made = await create(path, data, mode);
      if (mode === 'ephemeral-sequential') {
        const owned = lab.zk.children(LOCK).filter((c) => lab.zk.ownerOf(`${LOCK}/${c}`) === s.sessionId).length;
        created.push({ id, session: s.sessionId, znode: made, czxid: lab.zk.stat(made)!.czxid, ownedAfter: owned });
      }
      return made;
    };
  };
}

async function startTracked(ids: readonly string[], overrides: Partial<RecipeOptions> = {}): Promise<void> {
  for (const id of ids) await lab.start(id, overrides, tracked(id));
}

const idx = (e: Logged): number => lab.log.indexOf(e);
const tokenOf = (e: Logged): number => e.fields.token as number;
const acquisitions = (id?: string): Logged[] => lab.events(id, 'lock-acquired');
const releases = (id?: string): Logged[] => lab.events(id, 'lock-released');
const releasesOf = (id: string, token: number): Logged[] => releases(id).filter((e) => tokenOf(e) === token);
const eventsAfter = (e: Logged, id: string): Logged[] => lab.log.slice(idx(e) + 1).filter((x) => x.id === id);

/** No contender logs `leader` with a token it has logged `lock-released` for. */
function expectNoClaimAfterRelease(): void {
  for (const r of releases()) {
    const again = eventsAfter(r, r.id).filter((e) => e.event === 'leader' && tokenOf(e) === tokenOf(r));
    expect(again, `${r.id} claims token ${tokenOf(r)} again after releasing it`).toEqual([]);
  }
}

afterEach(async () => {
  await lab?.stopAll();
});

describe.each(VARIANTS)('the %s lock', (recipe, Lock) => {
  it('hands the lock round in sequence order: one hold at a time, released before the next acquisition, increasing tokens', async () => {
    newLab(recipe, Lock, { holdMs: 30, thinkMs: 10 });
    await startTracked(['c1', 'c2', 'c3']);
    await until(() => {
      for (const id of ['c1', 'c2', 'c3']) expect(releases(id).length).toBeGreaterThanOrEqual(3);
    });
    await lab.stopAll();

    const acq = acquisitions();
    // Every contender rejoins (after 10 ms of thought) while the next one holds for 30: it queues behind the others.
    expect(acq.length).toBeGreaterThanOrEqual(9);
    expect(acq.map((e) => e.id)).toEqual(acq.map((_, i) => ['c1', 'c2', 'c3'][i % 3]));
    for (let i = 1; i < acq.length; i++) expect(tokenOf(acq[i]!)).toBeGreaterThan(tokenOf(acq[i - 1]!));

    // Each acquisition's token is the czxid of the znode its holder joined with last.
    for (const a of acq) {
      const joined = lab.log
        .slice(0, idx(a))
        .filter((e) => e.id === a.id && e.event === 'joined')
        .at(-1)!;
      const made = created.find((c) => c.znode === joined.fields.znode)!;
      expect(made.id).toBe(a.id);
      expect(tokenOf(a)).toBe(made.czxid);
    }
    expect(created.every((c) => c.ownedAfter === 1)).toBe(true);

    // Each hold ends with lock-released (done) before the next lock-acquired, in log order.
    for (let i = 0; i + 1 < acq.length; i++) {
      const [a, next] = [acq[i]!, acq[i + 1]!];
      const rel = releasesOf(a.id, tokenOf(a));
      expect(rel).toHaveLength(1);
      expect(rel[0]!.fields.reason).toBe('done');
      expect(idx(rel[0]!)).toBeGreaterThan(idx(a));
      expect(idx(rel[0]!)).toBeLessThan(idx(next));
      // The successor waited in line and heard of this release: its last notification before it acquired follows it.
      const heard = lab.log
        .slice(0, idx(next))
        .filter((e) => e.id === next.id && e.event === 'notified')
        .at(-1)!;
      expect(idx(heard)).toBeGreaterThan(idx(rel[0]!));
    }

    // No two contenders' holds (lock-acquired..lock-released, by log position) overlap.
    const holds = acq.map((a) => ({
      id: a.id,
      from: idx(a),
      to: releasesOf(a.id, tokenOf(a))[0] ? idx(releasesOf(a.id, tokenOf(a))[0]!) : lab.log.length,
    }));
    for (const x of holds) for (const y of holds) if (x.id !== y.id) expect(x.to < y.from || y.to < x.from).toBe(true);

    // Every write was accepted, with strictly increasing tokens, and no update was lost.
    const writes = lab.writes();
    expect(writes.length).toBe(releases().length);
    expect(writes.every((w) => w.accepted)).toBe(true);
    for (let i = 1; i < writes.length; i++) expect(writes[i]!.token).toBeGreaterThan(writes[i - 1]!.token);
    expect(writes.map((w) => w.value)).toEqual(writes.map((_, i) => i + 1));
    expect(lab.resourceState).toMatchObject({ value: writes.length, accepted: writes.length, rejected: 0 });
    expect(lab.events(undefined, 'lock-write').every((e) => e.fields.accepted === true)).toBe(true);

    // Each contender's holds go acquired → write → released, and it resigns the leadership it held.
    for (const id of ['c1', 'c2', 'c3']) {
      const seq = lab.sequence(id, ['lock-acquired', 'lock-write', 'lock-released']);
      const full = Math.floor(seq.length / 3) * 3;
      expect(seq.slice(0, full)).toEqual(
        Array.from({ length: full }, (_, i) => ['lock-acquired', 'lock-write', 'lock-released'][i % 3]),
      );
      expect(
        lab
          .events(id, 'resigned')
          .filter((e) => e.fields.reason === 'released')
          .map(tokenOf),
      ).toEqual(releases(id).map(tokenOf));
    }
    expect(lab.events(undefined, 'error')).toEqual([]);
    expectNoClaimAfterRelease();
  });

  it('retries a release whose delete fails with a connection loss, and logs the release once', async () => {
    newLab(recipe, Lock, { holdMs: 40, thinkMs: 1000 });
    await startTracked(['c1', 'c2']);
    const z1 = lab.recipe('c1').znode!;
    lab.session('c1').inject('delete', 'fail', z1);
    await until(() => expect(acquisitions('c2')).toHaveLength(1));

    const t1 = tokenOf(acquisitions('c1')[0]!);
    expect(releasesOf('c1', t1).map((e) => e.fields.reason)).toEqual(['done']);
    expect(lab.zk.stat(z1)).toBeNull();
    const retried = lab.events('c1', 'retry');
    expect(retried.map((e) => ({ ...e.fields }))).toEqual([
      { op: 'evaluate', message: `delete ${z1}: connectionloss`, attempt: 1 },
    ]);
    expect(idx(retried[0]!)).toBeGreaterThan(idx(releasesOf('c1', t1)[0]!));
    expect(idx(retried[0]!)).toBeLessThan(idx(acquisitions('c2')[0]!));
    expect(tokenOf(acquisitions('c2')[0]!)).toBeGreaterThan(t1);
    expectNoClaimAfterRelease();
  });

  it('retries a release whose ownership check fails with a connection loss', async () => {
    newLab(recipe, Lock, { holdMs: 40, thinkMs: 1000 });
    await startTracked(['c1', 'c2']);
    await until(() => expect(acquisitions('c1')).toHaveLength(1));
    const z1 = lab.recipe('c1').znode!;
    // c1's next exists on its own znode is the release's check (its evaluation ran before it acquired).
    lab.session('c1').inject('exists', 'fail', z1);
    await until(() => expect(acquisitions('c2')).toHaveLength(1));

    const t1 = tokenOf(acquisitions('c1')[0]!);
    expect(releasesOf('c1', t1).map((e) => e.fields.reason)).toEqual(['done']);
    expect(lab.events('c1', 'retry').map((e) => ({ ...e.fields }))).toEqual([
      { op: 'evaluate', message: `exists ${z1}: connectionloss`, attempt: 1 },
    ]);
    expect(lab.zk.stat(z1)).toBeNull();
    expectNoClaimAfterRelease();
  });

  it('holds a release cut off by a disconnect until the session is back: no one acquires meanwhile, then the next one does', async () => {
    newLab(recipe, Lock, { holdMs: 40, thinkMs: 30 });
    await startTracked(['c1', 'c2']);
    const s1 = lab.session('c1');
    const z1 = lab.recipe('c1').znode!;
    // The connection drops as the delete goes out: it never reaches the servers.
    s1.before('delete', () => s1.disconnect());
    s1.inject('delete', 'fail', z1);
    await until(() => expect(lab.events('c1', 'retry')).toHaveLength(1));
    await sleep(60);
    expect(lab.zk.stat(z1)).not.toBeNull();
    expect(acquisitions('c2')).toEqual([]);
    const t1 = tokenOf(acquisitions('c1')[0]!);
    expect(releasesOf('c1', t1)).toHaveLength(1);

    s1.reconnect();
    await until(() => expect(acquisitions('c2')).toHaveLength(1));
    expect(lab.zk.stat(z1)).toBeNull();
    expect(
      lab
        .sequence('c1', ['lock-acquired', 'lock-write', 'resigned', 'lock-released', 'retry', 'paused', 'resumed'])
        .slice(0, 7),
    ).toEqual(['lock-acquired', 'lock-write', 'resigned', 'lock-released', 'paused', 'retry', 'resumed']);
    // c1 thinks, queues again and gets the lock back after c2: nothing is stuck.
    await until(() => expect(acquisitions('c1')).toHaveLength(2));
    expect(releasesOf('c1', t1)).toHaveLength(1);
    expect(releasesOf('c1', t1)[0]!.fields.reason).toBe('done');
    expect(created.every((c) => c.ownedAfter === 1)).toBe(true);
    expectNoClaimAfterRelease();
  });

  it('after a delete applied but unanswered, finds its znode gone on reconnect and logs the release once', async () => {
    newLab(recipe, Lock, { holdMs: 40, thinkMs: 30 });
    await startTracked(['c1', 'c2']);
    const s1 = lab.session('c1');
    const z1 = lab.recipe('c1').znode!;
    s1.before('delete', () => s1.disconnect());
    s1.inject('delete', 'lose-reply', z1);
    // The delete went through: c2 acquires while c1 is still cut off.
    await until(() => expect(acquisitions('c2')).toHaveLength(1));
    expect(lab.events('c1', 'resumed')).toEqual([]);
    s1.reconnect();
    await until(() => expect(acquisitions('c1')).toHaveLength(2));
    const t1 = tokenOf(acquisitions('c1')[0]!);
    expect(releasesOf('c1', t1).map((e) => e.fields.reason)).toEqual(['done']);
    expect(lab.events('c1', 'error')).toEqual([]);
    expect(releases('c2').map((e) => e.fields.reason)).toEqual(['done']);
    expectNoClaimAfterRelease();
  });

  it('takes part with its new session after its session expires while it thinks, with one znode per session', async () => {
    newLab(recipe, Lock, { holdMs: 30, thinkMs: 150 });
    await startTracked(['c1', 'c2']);
    await until(() => expect(releases('c1')).toHaveLength(1));
    const old = lab.session('c1');
    lab.zk.expire(old);
    await until(() => expect(acquisitions('c1').length).toBeGreaterThanOrEqual(3));

    const expired = lab.events('c1', 'expired');
    expect(expired).toHaveLength(1);
    const fresh = lab.session('c1');
    expect(fresh.sessionId).not.toBe(old.sessionId);
    const mine = created.filter((c) => c.id === 'c1');
    expect(mine.map((c) => c.session)).toEqual([old.sessionId, fresh.sessionId, fresh.sessionId]);
    expect(created.every((c) => c.ownedAfter === 1)).toBe(true);
    // The new session joined once; its znode is the one c1 acquires with next.
    const second = acquisitions('c1')[1]!;
    const joins = lab.log.slice(idx(expired[0]!), idx(second)).filter((e) => e.id === 'c1' && e.event === 'joined');
    expect(joins.map((e) => e.fields.znode)).toEqual([mine[1]!.znode]);
    expect(tokenOf(second)).toBe(mine[1]!.czxid);
    // c2 held the lock in between: c1 did not jump the line with its new place.
    expect(idx(second)).toBeGreaterThan(idx(releases('c2')[0]!));
    expect(tokenOf(acquisitions('c1')[2]!)).toBe(mine[2]!.czxid);
    expect(releases('c1').every((e) => e.fields.reason === 'done')).toBe(true);
    expectNoClaimAfterRelease();
  });

  it('does not claim the released token again when it reconnects during its hold', async () => {
    newLab(recipe, Lock, { holdMs: 80, thinkMs: 30 });
    await startTracked(['c1', 'c2']);
    await until(() => expect(acquisitions('c1')).toHaveLength(1));
    const s1 = lab.session('c1');
    s1.disconnect();
    await sleep(10);
    s1.reconnect();
    await until(() => expect(acquisitions('c1')).toHaveLength(2));
    const t1 = tokenOf(acquisitions('c1')[0]!);
    const keep = ['leader', 'lock-acquired', 'paused', 'resumed', 'lock-write', 'resigned', 'lock-released'] as const;
    const firstHold = lab.sequence('c1', [...keep]);
    expect(firstHold.slice(0, 8)).toEqual([
      'leader',
      'lock-acquired',
      'paused',
      'resumed',
      'leader',
      'lock-write',
      'resigned',
      'lock-released',
    ]);
    expect(
      lab
        .events('c1', 'leader')
        .map(tokenOf)
        .filter((t) => t === t1),
    ).toHaveLength(2);
    expectNoClaimAfterRelease();
  });

  it('does not claim the released token again when the session comes back during its release', async () => {
    newLab(recipe, Lock, { holdMs: 40, thinkMs: 30 });
    await startTracked(['c1', 'c2']);
    await until(() => expect(acquisitions('c1')).toHaveLength(1));
    const s1 = lab.session('c1');
    s1.disconnect();
    // The hold ends while cut off: the write goes to the resource, the release waits for the session.
    await until(() => expect(lab.events('c1', 'retry')).toHaveLength(1));
    s1.reconnect();
    await until(() => expect(acquisitions('c1')).toHaveLength(2));
    const t1 = tokenOf(acquisitions('c1')[0]!);
    const keep = [
      'leader',
      'lock-acquired',
      'paused',
      'resumed',
      'lock-write',
      'resigned',
      'lock-released',
      'retry',
    ] as const;
    expect(lab.sequence('c1', [...keep]).slice(0, 8)).toEqual([
      'leader',
      'lock-acquired',
      'paused',
      'lock-write',
      'resigned',
      'retry',
      'resumed',
      'lock-released',
    ]);
    expect(
      lab
        .events('c1', 'leader')
        .map(tokenOf)
        .filter((t) => t === t1),
    ).toHaveLength(1);
    expect(tokenOf(acquisitions('c1')[1]!)).toBeGreaterThan(tokenOf(acquisitions('c2')[0]!));
    expectNoClaimAfterRelease();
  });

  it.each([true, false])(
    'fencing %s: a holder whose session expired during its hold writes late with its old token',
    async (fencing) => {
      newLab(recipe, Lock, { holdMs: 100, thinkMs: 1000, fencing });
      await startTracked(['c1']);
      await startTracked(['c2'], { lock: { holdMs: 200, thinkMs: 1000, fencing } });
      await until(() => expect(lab.decisions).toHaveLength(1));
      const t1 = tokenOf(acquisitions('c1')[0]!);
      lab.zk.expire(lab.session('c1'));
      // c2 writes at the end of its hold and lets go; c1's new session is next in line.
      await until(() => expect(acquisitions('c1')).toHaveLength(2));

      const t2 = tokenOf(acquisitions('c2')[0]!);
      const t3 = tokenOf(acquisitions('c1')[1]!);
      expect(t2).toBeGreaterThan(t1);
      expect(lab.decisions.slice(0, 5).map((d) => ({ ...d }))).toEqual([
        { op: 'read', holder: 'c1', token: t1, value: 0, accepted: true },
        { op: 'read', holder: 'c2', token: t2, value: 0, accepted: true },
        { op: 'write', holder: 'c1', token: t1, value: 1, accepted: !fencing },
        { op: 'write', holder: 'c2', token: t2, value: 1, accepted: true },
        { op: 'read', holder: 'c1', token: t3, value: 1, accepted: true },
      ]);
      expect(lab.events('c1', 'lock-write')[0]!.fields).toEqual({
        token: t1,
        value: 1,
        accepted: !fencing,
        lastToken: t2,
        previousValue: 0,
      });
      expect(releases('c1').map((e) => ({ token: tokenOf(e), reason: e.fields.reason }))).toEqual([
        { token: t1, reason: 'lost' },
      ]);
      expect(
        lab
          .events('c1', 'resigned')
          .filter((e) => tokenOf(e) === t1)
          .map((e) => ({ ...e.fields })),
      ).toEqual([{ reason: 'expired', token: t1, wasLeader: true }]);
      expect(lab.sequence('c1', ['lock-acquired', 'expired', 'lock-write', 'lock-released'])).toEqual([
        'lock-acquired',
        'expired',
        'lock-write',
        'lock-released',
        'lock-acquired',
      ]);
      // c2 let go before c1 acquired again: the late write was c1's only overlap, and c2 never knew of it.
      expect(idx(releases('c2')[0]!)).toBeLessThan(idx(acquisitions('c1')[1]!));
      // With fencing, c2's write is the only one that counts; without, c1's late write was overwritten: a lost update.
      expect(lab.resourceState).toMatchObject(
        fencing
          ? { token: t3, value: 1, holder: 'c2', accepted: 1, rejected: 1 }
          : { token: t3, value: 1, holder: 'c2', accepted: 2, rejected: 0 },
      );
      // c1's new session took one place, the one it acquires with now.
      const mine = created.filter((c) => c.id === 'c1');
      expect(mine.map((c) => c.session)).toEqual([expect.any(String), lab.session('c1').sessionId]);
      expect(mine[1]!.czxid).toBe(t3);
      expect(created.every((c) => c.ownedAfter === 1)).toBe(true);
      expectNoClaimAfterRelease();
    },
  );

  it("runs the old hold to its end beside a new session's hold, and releases each once", async () => {
    // A long hold: the session ends early in it, the new session acquires alone, and both holds run at once.
    newLab(recipe, Lock, { holdMs: 300, thinkMs: 2000 });
    await startTracked(['c1']);
    await until(() => expect(acquisitions('c1')).toHaveLength(1));
    const t1 = tokenOf(acquisitions('c1')[0]!);
    lab.zk.expire(lab.session('c1'));
    await until(() => expect(acquisitions('c1')).toHaveLength(2));
    const t2 = tokenOf(acquisitions('c1')[1]!);
    await until(() => expect(releases('c1')).toHaveLength(2), 2000);
    expect(releases('c1').map((e) => ({ token: tokenOf(e), reason: e.fields.reason }))).toEqual([
      { token: t1, reason: 'lost' },
      { token: t2, reason: 'done' },
    ]);
    expect(acquisitions('c1')).toHaveLength(2);
    expect(lab.zk.children(LOCK)).toEqual([]);
    expectNoClaimAfterRelease();
  });

  it('stops during a hold without acting again: nothing after stopped', async () => {
    newLab(recipe, Lock, { holdMs: 60, thinkMs: 1000 });
    await startTracked(['c1']);
    // c2's hold (250 ms) outlasts c1's hold timer and the act interval: they would have fired by its end.
    await startTracked(['c2'], { lock: { holdMs: 250, thinkMs: 1000, fencing: true } });
    await until(() => expect(acquisitions('c1')).toHaveLength(1));
    // c1 runs two timers while it holds: the end of its hold and its act heartbeat. stop() runs without a turn of the
    // event loop, so nothing else starts or ends a timer meanwhile.
    const timersBefore = liveTimers();
    await lab.recipe('c1').stop();
    expect(timersBefore - liveTimers()).toBe(2);
    const acquired = acquisitions('c1')[0]!;
    await until(() => expect(releases('c2')).toHaveLength(1));
    expect(eventsAfter(acquired, 'c1').map((e) => e.event)).toEqual(['resigned', 'stopped']);
    expect(eventsAfter(acquired, 'c1')[0]!.fields).toEqual({
      reason: 'stopped',
      token: tokenOf(acquired),
      wasLeader: true,
    });
    expect(lab.decisions.filter((d) => d.holder === 'c1').map((d) => d.op)).toEqual(['read']);
    expect(lab.zk.children(LOCK)).toEqual([]);
  });

  it('stops while it thinks without rejoining: nothing after stopped', async () => {
    newLab(recipe, Lock, { holdMs: 20, thinkMs: 60 });
    await startTracked(['c1']);
    await startTracked(['c2'], { lock: { holdMs: 250, thinkMs: 1000, fencing: true } });
    await until(() => expect(releases('c1')).toHaveLength(1));
    // Thinking, c1 runs one timer: the end of its thought.
    const timersBefore = liveTimers();
    await lab.recipe('c1').stop();
    expect(timersBefore - liveTimers()).toBe(1);
    const released = releases('c1')[0]!;
    await until(() => expect(releases('c2')).toHaveLength(1));
    expect(eventsAfter(released, 'c1').map((e) => e.event)).toEqual(['stopped']);
    expect(created.filter((c) => c.id === 'c1')).toHaveLength(1);
  });

  // The new session's join runs outside the serialized evaluation; the loop's rejoin, finding no znode of its own
  // while that join is in flight, must wait for it rather than make a second znode (it would wait behind its own
  // orphan, and the lock would be stuck for everyone).
  it('keeps one znode when its thought ends while the new session is still joining (expiry while thinking)', async () => {
    newLab(recipe, Lock, { holdMs: 30, thinkMs: 200 });
    let sessions = 0;
    await lab.start('c1', {}, (s) => {
      tracked('c1')(s);
      if (++sessions < 2) return;
      // The new session's round trips take 100 ms: its join (mkdirp and create) is under way when c1's thought ends.
      const create = s.create.bind(s);
      s.create = async (path, data, mode) => {
        await sleep(100);
        return create(path, data, mode);
      };
    });
    await startTracked(['c2'], { lock: { holdMs: 30, thinkMs: 5000, fencing: true } });
    await until(() => expect(releases('c1')).toHaveLength(1));
    await sleep(100);
    lab.zk.expire(lab.session('c1'));
    await sleep(500);
    expect(created.filter((c) => c.session === lab.session('c1').sessionId)).toHaveLength(1);
    expect(acquisitions('c1')).toHaveLength(2);
  });
});

describe('who hears of a release', () => {
  /** c1..c4 queue in order; each holds 40 ms once (a long think keeps it out of the queue after). */
  async function fourInLine(recipe: RecipeName, Lock: LockClass): Promise<string[]> {
    newLab(recipe, Lock, { holdMs: 40, thinkMs: 5000 });
    await startTracked(['c1', 'c2', 'c3', 'c4']);
    const znodes = ['c1', 'c2', 'c3', 'c4'].map((id) => lab.recipe(id).znode!);
    await until(() => expect(releases('c3')).toHaveLength(1));
    return znodes;
  }

  /** The notifications each contender logged between two log entries. */
  const notifiedBetween = (from: Logged, to: Logged): Record<string, unknown[]> => {
    const out: Record<string, unknown[]> = { c1: [], c2: [], c3: [], c4: [] };
    for (const e of lab.log.slice(idx(from) + 1, idx(to))) if (e.event === 'notified') out[e.id]!.push({ ...e.fields });
    return out;
  };

  it('herd: every waiting contender is notified of each release', async () => {
    await fourInLine('herd', HerdLock);
    const [r1, r2, r3] = ['c1', 'c2', 'c3'].map((id) => releases(id)[0]!);
    const change = { path: LOCK, type: 'children' };
    expect(notifiedBetween(r1!, r2!)).toEqual({ c1: [], c2: [change], c3: [change], c4: [change] });
    expect(notifiedBetween(r2!, r3!)).toEqual({ c1: [], c2: [], c3: [change], c4: [change] });
    expect(acquisitions().map((e) => e.id)).toEqual(['c1', 'c2', 'c3', 'c4']);
  });

  it('predecessor: only the next in line is notified of a release', async () => {
    const [z1, z2] = await fourInLine('predecessor', PredecessorLock);
    const [r1, r2, r3] = ['c1', 'c2', 'c3'].map((id) => releases(id)[0]!);
    expect(notifiedBetween(r1!, r2!)).toEqual({ c1: [], c2: [{ path: z1, type: 'deleted' }], c3: [], c4: [] });
    expect(notifiedBetween(r2!, r3!)).toEqual({ c1: [], c2: [], c3: [{ path: z2, type: 'deleted' }], c4: [] });
    expect(acquisitions().map((e) => e.id)).toEqual(['c1', 'c2', 'c3', 'c4']);
  });
});
