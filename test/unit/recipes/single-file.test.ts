import { afterEach, describe, expect, it, vi } from 'vitest';
import { SingleFileElection } from '../../../src/recipes/single-file.js';
import { RecipeLab } from './recipe-lab.js';

const LEADER = '/e/leader';
let lab: RecipeLab;

function newLab(): RecipeLab {
  lab = new RecipeLab((o, io, d) => new SingleFileElection(o, io, d), {
    recipe: 'single-file',
    path: '/e',
    sessionTimeoutMs: 4000,
    onDisconnect: 'pause',
  });
  return lab;
}

const until = (check: () => void, timeout = 2000): Promise<void> => vi.waitFor(check, { timeout, interval: 5 });
const states = (id: string): unknown[] => lab.events(id, 'state').map((e) => e.fields.state);

afterEach(async () => {
  await lab.stopAll();
});

describe('single-file election', () => {
  it('elects the contender whose create succeeded, with the znode czxid as token; the others stay inactive', async () => {
    newLab();
    await lab.start('c1');
    await until(() => expect(lab.leaders()).toEqual(['c1']));
    await lab.start('c2');
    await lab.start('c3');
    await until(() => expect(states('c3')).toEqual(['inactive']));
    await until(() => expect(states('c2')).toEqual(['inactive']));

    expect(lab.zk.ownerOf(LEADER)).toBe(lab.session('c1').sessionId);
    const token = lab.events('c1', 'leader')[0]!.fields.token;
    expect(token).toBe(lab.zk.stat(LEADER)!.czxid);
    expect(states('c1')).toEqual(['active']);
    expect(lab.sequence('c1', ['joined', 'watching', 'leader', 'act', 'state'])).toEqual([
      'joined',
      'watching',
      'leader',
      'act',
      'state',
    ]);
    expect(lab.events('c2', 'follower')[0]!.fields).toEqual({ watching: LEADER });
    expect(lab.events('c2', 'watching')[0]!.fields).toEqual({ path: LEADER, kind: 'exists' });
    expect(JSON.parse(lab.zk.data(LEADER)!)).toMatchObject({ id: 'c1' });
  });

  it('fails over when the leader is killed: a watcher is notified of the deletion and takes over', async () => {
    newLab();
    await lab.start('c1');
    await until(() => expect(lab.leaders()).toEqual(['c1']));
    await lab.start('c2');
    await until(() => expect(states('c2')).toEqual(['inactive']));

    lab.kill('c1');
    await until(() => expect(lab.leaders()).toEqual(['c2']));
    expect(lab.events('c2', 'notified')[0]!.fields).toEqual({ path: LEADER, type: 'deleted' });
    expect(states('c2')).toEqual(['inactive', 'active']);
    expect(lab.zk.ownerOf(LEADER)).toBe(lab.session('c2').sessionId);
  });

  it('recognises its own znode after a create whose reply was lost', async () => {
    newLab();
    await lab.start('c1', {}, (s) => s.inject('create', 'lose-reply', LEADER));
    await until(() => expect(lab.leaders()).toEqual(['c1']));
    // The first create landed; the retry met NODEEXISTS and found this session as the owner.
    expect(lab.events('c1', 'retry')[0]!.fields).toMatchObject({ op: 'create', attempt: 1, delayMs: 50 });
    expect(lab.zk.ownerOf(LEADER)).toBe(lab.session('c1').sessionId);
    expect(states('c1')).toEqual(['active']);
  });

  it('pauses on a disconnect and returns to active when the session and the znode survived', async () => {
    newLab();
    await lab.start('c1');
    await lab.start('c2');
    await until(() => expect(states('c2')).toEqual(['inactive']));

    lab.session('c1').disconnect();
    lab.session('c2').disconnect();
    expect(states('c1')).toEqual(['active', 'paused']);
    expect(states('c2')).toEqual(['inactive', 'paused']);
    expect(lab.leaders()).toEqual([]);

    lab.session('c1').reconnect();
    lab.session('c2').reconnect();
    await until(() => expect(states('c1')).toEqual(['active', 'paused', 'active']));
    await until(() => expect(states('c2')).toEqual(['inactive', 'paused', 'inactive']));
    const tokens = lab.events('c1', 'leader').map((e) => e.fields.token);
    expect(tokens).toHaveLength(2);
    expect(tokens[1]).toBe(tokens[0]);
    // Session events reach every armed watcher without firing it: no spurious notification.
    expect(lab.events('c2', 'notified')).toEqual([]);
  });

  it('goes inactive on expiry and rejoins with a new session', async () => {
    newLab();
    await lab.start('c1');
    await lab.start('c2');
    await until(() => expect(states('c2')).toEqual(['inactive']));
    const first = lab.session('c1');

    // Partitioned: the servers expire the session, the contender learns it only when it reaches them again.
    first.disconnect();
    lab.zk.expire(first);
    await until(() => expect(lab.leaders()).toEqual(['c2']));
    expect(states('c1')).toEqual(['active', 'paused']);
    first.reconnect();
    await until(() => expect(lab.session('c1')).not.toBe(first));
    await until(() => expect(lab.events('c1', 'follower')).toHaveLength(1));
    expect(states('c1')).toEqual(['active', 'paused', 'inactive']);
    expect(lab.sequence('c1', ['expired', 'connected', 'joined']).slice(-3)).toEqual([
      'expired',
      'connected',
      'joined',
    ]);
    expect(lab.leaders()).toEqual(['c2']);
  });

  it('rejoins and contends again when its session expires while it retries', async () => {
    newLab();
    await lab.start('c1');
    await lab.start('c2');
    await until(() => expect(states('c2')).toEqual(['inactive']));
    const first = lab.session('c2');
    first.before('create', () => first.disconnect());
    first.inject('create', 'fail', LEADER);
    lab.kill('c1');
    await until(() => expect(lab.events('c2', 'retry').length).toBeGreaterThanOrEqual(2));
    lab.zk.expire(first);
    first.reconnect();
    await until(() => expect(lab.leaders()).toEqual(['c2']));
    expect(states('c2')).toEqual(['inactive', 'paused', 'inactive', 'active']);
    expect(lab.zk.ownerOf(LEADER)).toBe(lab.session('c2').sessionId);
  });

  it('is gone the moment stop() returns: the session close removes its znode, with no separate delete first', async () => {
    newLab();
    await lab.start('c1');
    await lab.start('c2');
    await until(() => expect(states('c2')).toEqual(['inactive']));
    const deletes: string[] = [];
    lab.session('c1').before('delete', () => deletes.push('c1'));
    const c1 = lab.session('c1').sessionId;
    await lab.recipe('c1').stop();
    expect(lab.zk.ownerOf(LEADER)).not.toBe(c1); // gone, or already c2's
    expect(deletes).toEqual([]);
    await until(() => expect(lab.leaders()).toEqual(['c2']));
  });

  it('retries with backoff up to 8 attempts, then waits for a connection and starts over', async () => {
    newLab();
    await lab.start('c1', {}, (s) => {
      for (let i = 0; i < 8; i++) s.inject('create', 'fail', LEADER);
    });
    await until(() => expect(lab.leaders()).toEqual(['c1']), 8000);
    const retries = lab.events('c1', 'retry').map((e) => e.fields);
    expect(retries.map((r) => r.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(retries.map((r) => r.delayMs)).toEqual([50, 100, 200, 400, 800, 1600, 2000, undefined]);
    expect(retries.at(-1)).toMatchObject({ op: 'create', exhausted: true });
  }, 10_000);
});
