import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLabEvents } from '../../src/lab/event-log.js';
import { contenderOf } from '../../src/lab/events.js';
import { applyKill } from '../../src/faults/kinds/kill.js';
import { freeze } from '../../src/faults/kinds/pause.js';
import { CHILD_ENTRY, listContenders, stopContenders } from '../../src/contenders/service.js';
import { ensembleDown, ensembleUp } from '../../src/ensemble/service.js';
import { cmdlineOf, findMarked } from '../../src/lab/node/procs.js';
import { readState } from '../../src/lab/state.js';
import { allEvents, events, spawn, zkLeaderContender, zkMembers } from '../helpers/contenders.js';
import { leadershipSpans } from '../helpers/beliefs.js';
import { bySequence } from '../helpers/zk-raw.js';
import { tempLab } from '../helpers/paths.js';
import { waitFor } from '../helpers/wait.js';
import { watchFacts } from '../helpers/zk-facts.js';

const paths = tempLab();
const TICK = 200;
const SESSION = 2000;

beforeAll(async () => {
  await ensembleUp(paths, { servers: 3, tickMs: TICK });
});
afterAll(async () => {
  await ensembleDown(paths, { purge: true });
});

/** Contenders of one election path in the order of their znodes' sequence numbers, by ZooKeeper's own listing. */
async function chain(path: string): Promise<{ id: string; znode: string; session: string }[]> {
  const byName = new Map<string, { id: string; znode: string; session: string }>();
  for (const [id, m] of await zkMembers(paths, path)) {
    byName.set(m.znode.slice(path.length + 1), { id, znode: m.znode, session: m.owner });
  }
  return bySequence([...byName.keys()]).map((name) => byName.get(name)!);
}

function claimsAfter(id: string, t: number) {
  return events(paths, id).filter((e) => e.event === 'leader' && e.t > t);
}

describe('predecessor recipe on a real 3-server ensemble', () => {
  const path = '/election';

  it('elects exactly one leader, the lowest sequence, and chains the watches (no herd)', async () => {
    await spawn(paths, { count: 5, path });
    const c = await waitFor(async () => {
      const ch = await chain(path);
      return ch.length === 5 &&
        ch.every(
          (x, i) => listContenders(paths).find((l) => l.id === x.id)!.state === (i === 0 ? 'leader' : 'follower'),
        )
        ? ch
        : null;
    }, 'five contenders in a chain');
    expect(await zkLeaderContender(paths, path)).toBe(c[0]!.id);
    const facts = await waitFor(async () => {
      const f = await watchFacts(readState(paths)!);
      return c.slice(0, -1).every((x) => f.byPath.get(x.znode)?.length === 1) ? f : null;
    }, 'every predecessor watched by exactly one session');
    for (let i = 1; i < c.length; i++) expect(facts.byPath.get(c[i - 1]!.znode)).toEqual([c[i]!.session]);
    expect(facts.byPath.has(c[4]!.znode)).toBe(false);
    expect(facts.childWatches).toBe(0);
  });

  it('KILL the leader: the next in sequence leads within session timeout + 2 ticks + 500 ms', async () => {
    const [old, next] = await chain(path);
    const killedAt = Date.now();
    await applyKill(paths, 'leader', 'SIGKILL');
    const claim = await waitFor(() => claimsAfter(next!.id, killedAt)[0], `${next!.id} to lead`, 15_000);
    expect(claim.t - killedAt).toBeLessThanOrEqual(SESSION + 2 * TICK + 500);
    expect(await zkLeaderContender(paths, path)).toBe(next!.id);
    expect(listContenders(paths).find((c) => c.id === old!.id)!.state).toBe('dead');
  });

  it('TERM the leader: the next leads within 500 ms', async () => {
    const [, next] = await chain(path);
    const killedAt = Date.now();
    await applyKill(paths, 'leader', 'SIGTERM');
    const claim = await waitFor(() => claimsAfter(next!.id, killedAt)[0], `${next!.id} to lead`, 5000);
    expect(claim.t - killedAt).toBeLessThanOrEqual(500);
    expect(await zkLeaderContender(paths, path)).toBe(next!.id);
  });

  it('killing a mid-chain contender changes no leadership; its successor watches the new predecessor', async () => {
    await spawn(paths, { count: 2, path });
    const before = await waitFor(async () => {
      const ch = await chain(path);
      return ch.length === 5 ? ch : null;
    }, 'a chain of five');
    const [leader, , mid, succ] = before;
    const t0 = Date.now();
    await applyKill(paths, mid!.id, 'SIGKILL');
    await waitFor(
      async () => (await watchFacts(readState(paths)!)).byPath.get(before[1]!.znode)?.includes(succ!.session),
      `${succ!.id} to watch ${before[1]!.id}'s znode`,
      15_000,
    );
    expect(await zkLeaderContender(paths, path)).toBe(leader!.id);
    for (const c of before.filter((x) => x.id !== leader!.id)) expect(claimsAfter(c.id, t0)).toEqual([]);
    const notified = allEvents(paths).filter((e) => e.event === 'notified' && e.t > t0);
    expect(notified.map((e) => e.id)).toEqual([succ!.id]);
  });

  it('a leader paused past its session timeout loses leadership and never claims it again under the old session', async () => {
    const [old, next] = await chain(path);
    const oldSession = old!.session;
    const pausedAt = Date.now();
    await freeze(paths, 'leader', true);
    await waitFor(() => claimsAfter(next!.id, pausedAt)[0], `${next!.id} to lead while ${old!.id} is frozen`, 15_000);
    expect(await zkLeaderContender(paths, path)).toBe(next!.id);
    const resumedAt = Date.now();
    await freeze(paths, old!.id, false);
    // Thawed, its client finds its connection dead, reconnects and hears "expired": seconds here, longer beside two
    // other labs (once over 15 s).
    await waitFor(
      () => events(paths, old!.id).some((e) => e.event === 'expired' && e.t >= resumedAt),
      `${old!.id} to learn its session expired`,
      30_000,
    );
    const after = events(paths, old!.id).filter((e) => e.t >= resumedAt);
    expect(after.some((e) => (e.event === 'paused' && e.wasLeader) || e.event === 'resigned')).toBe(true);
    expect(after.filter((e) => (e.event === 'leader' || e.event === 'act') && e.session === oldSession)).toEqual([]);
    await waitFor(
      () => listContenders(paths).find((c) => c.id === old!.id)!.state === 'follower',
      `${old!.id} to rejoin as a follower`,
    );
    expect(listContenders(paths).find((c) => c.id === old!.id)!.session).not.toBe(oldSession);
  });

  it('no two contenders ever led at once while both sessions were live (from the logs)', async () => {
    const lab = readLabEvents(paths.labEventsFile);
    const frozenOrDead = (id: string, t: number) => {
      const mine = lab.filter((e) => contenderOf(e) === id && e.t <= t);
      const last = mine.at(-1);
      return last !== undefined && (last.event === 'contender-killed' || last.event === 'contender-paused');
    };
    const spans = leadershipSpans(
      paths,
      readState(paths)!.contenders.map((c) => c.id),
    );
    expect(spans.length).toBeGreaterThanOrEqual(4);
    for (const a of spans) {
      for (const b of spans) {
        if (a.id === b.id || a.start > b.start || a.end <= b.start) continue;
        expect(frozenOrDead(a.id, b.start), `${a.id} and ${b.id} overlap at ${b.start}`).toBe(true);
      }
    }
  });

  it('stop --all closes every session and leaves no contender process', async () => {
    await stopContenders(paths, 'all');
    expect(listContenders(paths).every((c) => !c.alive)).toBe(true);
    // The lab's link daemon carries the marker too; no contender program may.
    expect(findMarked([paths.nodeMarker]).filter((pid) => cmdlineOf(pid)?.includes(CHILD_ENTRY))).toEqual([]);
  });
});
