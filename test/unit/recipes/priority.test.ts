import { afterEach, describe, expect, it, vi } from 'vitest';
import { PriorityElection } from '../../../src/recipes/priority.js';
import type { RecipeOptions } from '../../../src/recipes/types.js';
import type { FakeSession } from './fake-zk.js';
import { RecipeLab } from './recipe-lab.js';

const ELECTED = '/p/leader/elected';
const CURRENT = '/p/leader/current';
let lab: RecipeLab;
let outsider: FakeSession;

const until = (check: () => void, timeout = 3000): Promise<void> => vi.waitFor(check, { timeout, interval: 5 });
const fieldsOf = (id: string, event: Parameters<RecipeLab['events']>[1]): Record<string, unknown>[] =>
  lab.events(id, event).map((e) => ({ ...e.fields }));

/**
 * A lab whose leader/elected first names "x", a member that never takes over: the elector waits one watchdog
 * period for it, long enough for every contender started meanwhile to join, and then elects among them all.
 */
async function newLab(base: Partial<RecipeOptions> = {}, blocker = true): Promise<RecipeLab> {
  lab = new RecipeLab((o, io, d) => new PriorityElection(o, io, d), {
    recipe: 'priority',
    path: '/p',
    sessionTimeoutMs: 4000,
    onDisconnect: 'pause',
    takeoverMs: 20,
    watchdogMs: 150,
    // Most tests here are about the hand-over mechanics with a sticky elector; pre-emption has tests of its own.
    preempt: false,
    ...base,
  });
  outsider = await lab.zk.connect();
  for (const p of ['/p/nodes', '/p/election', '/p/leader']) await outsider.mkdirp(p);
  if (!blocker) return lab;
  await outsider.create('/p/nodes/x', JSON.stringify({ id: 'x', priority: 100 }), 'ephemeral');
  await outsider.create(ELECTED, 'x', 'persistent');
  return lab;
}

/** c1 (elector, priority 1), c3 (priority 5), c2 (priority 9), joined in that order; c2 leads. */
async function threeContenders(): Promise<void> {
  await newLab();
  await lab.start('c1', { priority: 1, site: 'a' });
  await lab.start('c3', { priority: 5, site: 'a' });
  await lab.start('c2', { priority: 9, site: 'b' });
  await until(() => expect(lab.leaders()).toEqual(['c2']));
}

afterEach(async () => {
  await lab.stopAll();
});

describe('priority election', () => {
  it('elects by priority, and the elected contender goes PROGRESS → READY before it leads', async () => {
    await threeContenders();
    expect(lab.sequence('c1', ['elector', 'excluded', 'elected'])).toEqual(['elector', 'excluded', 'elected']);
    expect(fieldsOf('c1', 'excluded')).toEqual([{ candidate: 'x', afterMs: 150 }]);
    expect(fieldsOf('c1', 'elected')).toEqual([
      { candidate: 'c2', policy: 'priority', reason: 'policy', previous: 'x' },
    ]);
    expect(lab.sequence('c2', ['progress', 'ready', 'leader'])).toEqual(['progress', 'ready', 'leader']);

    const czxid = lab.zk.stat(CURRENT)!.czxid;
    for (const e of ['progress', 'ready', 'leader'] as const) expect(lab.events('c2', e)[0]!.fields.token).toBe(czxid);
    expect(lab.zk.data(CURRENT)).toBe('READY');
    expect(lab.zk.ownerOf(CURRENT)).toBe(lab.session('c2').sessionId);
    expect(lab.zk.data(ELECTED)).toBe('c2');
    expect(lab.zk.ownerOf(ELECTED)).toBe('0');
    expect(lab.events('c3', 'progress')).toEqual([]);
    expect(lab.events('c3', 'elector')).toEqual([]);
    // Not named, c3 does not watch leader/elected: only the named candidate is woken (its nodes/ entry is rung).
    expect(fieldsOf('c3', 'follower').at(-1)).toMatchObject({ watching: '/p/nodes/c3' });
    expect(lab.events('c3', 'notified').filter((e) => e.fields.path === ELECTED)).toEqual([]);
    expect(JSON.parse(lab.zk.data('/p/nodes/c2')!)).toMatchObject({ id: 'c2', priority: 9, site: 'b' });
    expect(lab.zk.data(`/p/election/${lab.recipe('c1').znode!.split('/').at(-1)}`)).toBe('c1');
  });

  it('elects the next one when the leader is killed, and keeps the elector', async () => {
    await threeContenders();
    lab.kill('c2');
    await until(() => expect(lab.leaders()).toEqual(['c3']));
    expect(fieldsOf('c1', 'elected').at(-1)).toEqual({
      candidate: 'c3',
      policy: 'priority',
      reason: 'policy',
      previous: 'c2',
    });
    expect(lab.sequence('c3', ['progress', 'ready', 'leader'])).toEqual(['progress', 'ready', 'leader']);
    expect(lab.events('c3', 'elector')).toEqual([]);
  });

  it('wakes only the contender it names: its nodes/ entry is rung, the other followers hear nothing of it', async () => {
    await threeContenders();
    await lab.start('c4', { priority: 2 });
    await until(() => expect(lab.events('c4', 'follower')).toHaveLength(1));
    const member = lab.zk.stat('/p/nodes/c3')!;
    lab.kill('c2');
    await until(() => expect(lab.leaders()).toEqual(['c3']));
    expect(lab.events('c3', 'notified').map((e) => e.fields)).toContainEqual({ path: '/p/nodes/c3', type: 'changed' });
    expect(JSON.parse(lab.zk.data('/p/nodes/c3')!)).toMatchObject({ id: 'c3', priority: 5 });
    expect(lab.zk.stat('/p/nodes/c3')!.version).toBe(member.version + 1);
    // c4 hears of its predecessor c2 going, of nothing about the leadership.
    expect(lab.events('c4', 'notified').map((e) => String(e.fields.path))).toEqual([
      expect.stringMatching(/^\/p\/election\//),
    ]);
  });

  it('rings a candidate named by hand once leader/current is free, so it takes over before the watchdog runs out', async () => {
    await newLab({ watchdogMs: 2000 }, false);
    await lab.start('c1', { priority: 9 });
    await lab.start('c2', { priority: 1 });
    await until(() => expect(lab.leaders()).toEqual(['c1']));
    await outsider.setData(ELECTED, 'c2', -1);
    await until(() => expect(lab.leaders()).toEqual(['c2']), 1500);
    expect(lab.events('c1', 'excluded')).toEqual([]);
    expect(fieldsOf('c1', 'resigned')[0]).toMatchObject({ reason: 'not-elected', wasLeader: true });
  });

  it('hands the elector role on when the elector dies, without disturbing the leader', async () => {
    await threeContenders();
    lab.kill('c1');
    await until(() => expect(lab.events('c3', 'elector')).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 50));
    expect(lab.events('c3', 'elected')).toEqual([]);
    expect(lab.leaders()).toEqual(['c2']);
    expect(lab.events('c2', 'leader')).toHaveLength(1);
    expect(lab.events('c2', 'resigned')).toEqual([]);
  });

  it('lets a new elector pick up a transition in progress and run the watchdog itself', async () => {
    await newLab();
    await lab.start('c1', { priority: 1 });
    await lab.start('c3', { priority: 5 });
    await lab.start('c2', { priority: 9, takeoverMs: 60_000 });
    await until(() => expect(lab.events('c2', 'progress')).toHaveLength(1));
    lab.kill('c1');
    await until(() => expect(lab.leaders()).toEqual(['c3']));
    expect(lab.events('c1', 'excluded').map((e) => e.fields.candidate)).toEqual(['x']);
    // The new elector starts with no exclusions of its own: it gives up on c2, then on x again, then elects c3.
    expect(fieldsOf('c3', 'excluded').map((f) => f.candidate)).toEqual(['c2', 'x']);
    expect(fieldsOf('c3', 'elected').map((f) => f.candidate)).toEqual(['x', 'c3']);
    expect(lab.sequence('c3', ['elector', 'progress', 'ready', 'leader'])).toEqual([
      'elector',
      'progress',
      'ready',
      'leader',
    ]);
    expect(lab.sequence('c2', ['progress', 'resigned'])).toEqual(['progress', 'resigned']);
  });

  it('pauses the leader on a disconnect and resumes with the same token when the session survived', async () => {
    await threeContenders();
    lab.session('c2').disconnect();
    expect(lab.leaders()).toEqual([]);
    lab.session('c2').reconnect();
    await until(() => expect(lab.leaders()).toEqual(['c2']));
    const tokens = lab.events('c2', 'leader').map((e) => e.fields.token);
    expect(tokens).toEqual([tokens[0], tokens[0]]);
    expect(lab.events('c2', 'progress')).toHaveLength(1);
    expect(lab.events('c2', 'notified').filter((e) => e.fields.type === 'notwatching')).toEqual([]);
  });

  it('prefers the previous leader site under the site policy, even over a higher priority', async () => {
    await newLab({ policy: 'site' });
    await lab.start('c1', { priority: 1, site: 'a' });
    await lab.start('c3', { priority: 5, site: 'a' });
    await lab.start('c2', { priority: 9, site: 'b' });
    await lab.start('c4', { priority: 2, site: 'b' });
    await until(() => expect(lab.leaders()).toEqual(['c2']));
    lab.kill('c2');
    await until(() => expect(lab.leaders()).toEqual(['c4']));
    expect(fieldsOf('c1', 'elected').at(-1)).toMatchObject({ candidate: 'c4', policy: 'site' });
  });

  it('excludes a candidate stuck in PROGRESS; the stuck one lets go when elected names someone else', async () => {
    await newLab();
    await lab.start('c1', { priority: 1 });
    await lab.start('c3', { priority: 5 });
    await lab.start('c2', { priority: 9, takeoverMs: 60_000 });
    await until(() => expect(lab.leaders()).toEqual(['c3']));
    expect(fieldsOf('c1', 'elected').map((f) => f.candidate)).toEqual(['c2', 'c3']);
    expect(fieldsOf('c1', 'excluded').map((f) => f.candidate)).toEqual(['x', 'c2']);
    expect(lab.sequence('c2', ['progress', 'ready', 'resigned'])).toEqual(['progress', 'resigned']);
    expect(fieldsOf('c2', 'resigned')[0]).toMatchObject({
      reason: 'not-elected',
      wasLeader: false,
      wasTakingOver: true,
    });
    expect(lab.events('c2', 'progress')[0]!.fields.token).not.toBe(lab.events('c3', 'leader')[0]!.fields.token);
    expect(lab.zk.ownerOf(CURRENT)).toBe(lab.session('c3').sessionId);
  });

  it('gives a lone slow candidate another chance rather than leaving the cluster without a leader', async () => {
    await newLab({ takeoverMs: 400 }, false);
    await lab.start('c1');
    await until(() => expect(lab.leaders()).toEqual(['c1']));
    expect(fieldsOf('c1', 'excluded').length).toBeGreaterThan(0);
    expect(fieldsOf('c1', 'elected').at(-1)).toMatchObject({ candidate: 'c1', reason: 'forgiven' });
    expect(lab.events('c1', 'progress')).toHaveLength(1);
    expect(lab.events('c1', 'resigned')).toEqual([]);
  });

  it('does not set READY when elected changed just before (re-read after the takeover)', async () => {
    await newLab();
    await lab.start('c1', { priority: 1 });
    await lab.start('c3', { priority: 5 });
    await lab.start('c2', { priority: 9 }, (s) =>
      s.before('sync', () => lab.zk.setData(ELECTED, Buffer.from('c3'), -1)),
    );
    await until(() => expect(lab.leaders()).toEqual(['c3']));
    expect(lab.events('c2', 'ready')).toEqual([]);
    expect(lab.events('c2', 'leader')).toEqual([]);
    expect(fieldsOf('c2', 'resigned')[0]).toMatchObject({ reason: 'not-elected', wasLeader: false });
    expect(lab.zk.ownerOf(CURRENT)).toBe(lab.session('c3').sessionId);
  });

  it('starts its takeover over when leader/current changed under it (READY is written against its version)', async () => {
    await newLab();
    await lab.start('c1', { priority: 1 });
    await lab.start('c2', { priority: 9 }, (s) =>
      s.before('setData', () => lab.zk.setData(CURRENT, Buffer.from('PROGRESS'), -1)),
    );
    await until(() => expect(lab.leaders()).toEqual(['c2']));
    const progress = lab.events('c2', 'progress').map((e) => e.fields.token);
    expect(progress).toHaveLength(2);
    expect(progress[1]).not.toBe(progress[0]);
    expect(lab.events('c2', 'leader')[0]!.fields.token).toBe(progress[1]);
    expect(fieldsOf('c2', 'resigned')[0]).toMatchObject({ reason: 'current-changed' });
  });

  it('finds its leader/current after a create whose reply was lost', async () => {
    await newLab();
    await lab.start('c1', { priority: 9 }, (s) => s.inject('create', 'lose-reply', CURRENT));
    await until(() => expect(lab.leaders()).toEqual(['c1']));
    expect(lab.events('c1', 'progress')).toHaveLength(1);
    expect(lab.events('c1', 'retry')[0]!.fields).toMatchObject({ op: 'evaluate', attempt: 1 });
  });

  it('re-elects the holder when leader/elected vanishes, without a new takeover', async () => {
    await threeContenders();
    await outsider.delete(ELECTED);
    await until(() => expect(lab.zk.data(ELECTED)).toBe('c2'));
    expect(fieldsOf('c1', 'elected').at(-1)).toMatchObject({ candidate: 'c2', reason: 'holder', previous: null });
    expect(lab.events('c2', 'progress')).toHaveLength(1);
    expect(lab.leaders()).toEqual(['c2']);
  });

  it('rejoins and carries on when its session expires while it waits out a connection loss', async () => {
    await threeContenders();
    const first = lab.session('c2');
    first.before('getChildren', () => first.disconnect());
    lab.kill('c3'); // c2 watches c3's election znode: it evaluates, and loses the connection on its first call
    await until(() => expect(lab.events('c2', 'retry')).toHaveLength(1));
    lab.zk.expire(first);
    first.reconnect();
    await until(() => expect(lab.events('c2', 'joined')).toHaveLength(2));
    // Whether c2 (named by elected still) or c1 leads next is a race; what matters is that c2 evaluates again.
    const afterRejoin = (): string[] => {
      const seq = lab.sequence('c2', ['joined', 'follower', 'leader']);
      return seq.slice(seq.lastIndexOf('joined') + 1);
    };
    await until(() => expect(afterRejoin().length).toBeGreaterThan(0));
    await until(() => expect(lab.leaders()).toHaveLength(1));
  });

  it('on the leader session expiry: resigns, the elector moves on, and it rejoins as a follower', async () => {
    await threeContenders();
    const first = lab.session('c2');
    first.disconnect();
    lab.zk.expire(first);
    await until(() => expect(lab.leaders()).toEqual(['c3']));
    first.reconnect();
    await until(() => expect(lab.events('c2', 'joined')).toHaveLength(2));
    expect(fieldsOf('c2', 'resigned')[0]).toMatchObject({ reason: 'expired', wasLeader: true });
    await until(() => expect(fieldsOf('c2', 'follower').at(-1)).toEqual({ watching: '/p/nodes/c2', elected: 'c3' }));
    expect(lab.zk.ownerOf('/p/nodes/c2')).toBe(lab.session('c2').sessionId);
  });

  describe('with pre-emption', () => {
    it('hands over to a better contender that joins: the leader stops and deletes leader/current before the new one goes PROGRESS → READY', async () => {
      await newLab({ preempt: true }, false);
      await lab.start('c1', { priority: 5 });
      await lab.start('c2', { priority: 1 });
      await until(() => expect(lab.leaders()).toEqual(['c1']));
      const before = lab.zk.stat(CURRENT)!.czxid;
      await lab.start('c3', { priority: 9 });
      await until(() => expect(lab.leaders()).toEqual(['c3']));
      expect(fieldsOf('c1', 'elected').at(-1)).toEqual({
        candidate: 'c3',
        policy: 'priority',
        reason: 'preempt',
        previous: 'c1',
      });
      expect(fieldsOf('c1', 'resigned').at(-1)).toMatchObject({
        reason: 'not-elected',
        wasLeader: true,
        token: before,
      });
      // c1 let go before c3 claimed: its resignation comes first, and c3's token is a new leader/current.
      const progress = lab.events('c3', 'progress')[0]!;
      expect(lab.log.indexOf(lab.events('c1', 'resigned').at(-1)!)).toBeLessThan(lab.log.indexOf(progress));
      expect(progress.fields.token).toBe(lab.zk.stat(CURRENT)!.czxid);
      expect(progress.fields.token).not.toBe(before);
      expect(lab.zk.ownerOf(CURRENT)).toBe(lab.session('c3').sessionId);
      expect(lab.zk.data(CURRENT)).toBe('READY');
    });

    it('never pre-empts for a tie: an equal priority that joins later waits', async () => {
      await newLab({ preempt: true }, false);
      await lab.start('c1', { priority: 5 });
      await until(() => expect(lab.leaders()).toEqual(['c1']));
      await lab.start('c2', { priority: 5 });
      await until(() => expect(lab.events('c2', 'follower')).not.toHaveLength(0));
      await new Promise((r) => setTimeout(r, 100));
      expect(lab.leaders()).toEqual(['c1']);
      expect(lab.events('c1', 'elected').map((e) => e.fields.reason)).not.toContain('preempt');
    });

    it('follows the policy znode: a priority set there, then a site order, moves the leadership', async () => {
      await newLab({ preempt: true }, false);
      await lab.start('c1', { priority: 5, site: 'a' });
      await lab.start('c2', { priority: 1, site: 'b' });
      await lab.start('c3', { priority: 3, site: 'b' });
      await until(() => expect(lab.leaders()).toEqual(['c1']));
      await outsider.create('/p/policy', JSON.stringify({ priorities: { c2: 50 } }), 'persistent');
      await until(() => expect(lab.leaders()).toEqual(['c2']));
      await outsider.setData('/p/policy', JSON.stringify({ sites: ['a', 'b'], priorities: { c2: 50 } }), -1);
      await until(() => expect(lab.leaders()).toEqual(['c1']));
      await outsider.setData('/p/policy', JSON.stringify({ sites: ['b'], priorities: {} }), -1);
      await until(() => expect(lab.leaders()).toEqual(['c3']));
      expect(fieldsOf('c1', 'policy').at(-1)).toEqual({ sites: ['b'], priorities: {}, problems: [] });
    });

    it('uses what it can of a malformed policy and says what it left out', async () => {
      await newLab({ preempt: true }, false);
      await lab.start('c1', { priority: 5 });
      await lab.start('c2', { priority: 1 });
      await until(() => expect(lab.leaders()).toEqual(['c1']));
      await outsider.create(
        '/p/policy',
        JSON.stringify({ sites: 'b', priorities: { c2: 9, c1: 'high' } }),
        'persistent',
      );
      await until(() => expect(lab.leaders()).toEqual(['c2']));
      expect(fieldsOf('c1', 'policy').at(-1)!.problems).toEqual([
        'sites is not a list; ignored',
        'priorities.c1: "high" ignored (a priority is a whole number)',
      ]);
    });

    it('keeps the leader with preempt off, whatever joins', async () => {
      await newLab({ preempt: false }, false);
      await lab.start('c1', { priority: 1 });
      await until(() => expect(lab.leaders()).toEqual(['c1']));
      await lab.start('c2', { priority: 9 });
      await until(() => expect(lab.events('c2', 'follower')).not.toHaveLength(0));
      await new Promise((r) => setTimeout(r, 100));
      expect(lab.leaders()).toEqual(['c1']);
    });
  });
});
