import type { ContenderEventOf } from '../../src/lab/events.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveLeader } from '../../src/faults/leader.js';
import { withObserver } from '../../src/zk/observer.js';
import { listContenders } from '../../src/contenders/service.js';
import { fourLetterWord } from '../../src/ensemble/fourlw.js';
import { ensembleDown, ensembleUp } from '../../src/ensemble/service.js';
import { directConnectString, readState } from '../../src/lab/state.js';
import { clearDelay, delay, heal, isolate } from '../../src/faults/service.js';
import { ZkClient } from '../../src/zk/client.js';
import { events, allEvents, spawn, zkLeaderContender } from '../helpers/contenders.js';
import { leadershipIntervals } from '../../src/lab/leadership-intervals.js';
import { readLabEvents } from '../../src/lab/event-log.js';
import { tempLab } from '../helpers/paths.js';
import { waitFor } from '../helpers/wait.js';
import { connectedPorts } from '../helpers/sockets.js';

const paths = tempLab();
const SESSION = 2000;
const PATH = '/election';

beforeAll(async () => {
  await ensembleUp(paths, { servers: 3, tickMs: 200 });
  await spawn(paths, { count: 3, path: PATH, sessionTimeout: SESSION });
  await waitFor(() => {
    const cs = listContenders(paths);
    return cs.filter((c) => c.state === 'leader').length === 1 && cs.filter((c) => c.state === 'follower').length === 2;
  }, 'one leader and two followers');
}, 120_000);
afterAll(async () => {
  await ensembleDown(paths, { purge: true });
});

function proxyPorts(id: string): number[] {
  return Object.values(readState(paths)!.net!.contenderPorts[id]!);
}

/** Sessions the servers hold right now, by `cons` on every server. */
async function serverSessions(): Promise<string> {
  const state = readState(paths)!;
  return (await Promise.all(state.servers.map((s) => fourLetterWord(s.clientPort, 'cons').catch(() => '')))).join('\n');
}

/** Median ms of `n` sequential reads over `connect`. */
async function readLatency(connect: string, n = 15): Promise<number> {
  const zk = await ZkClient.connect({ connect, sessionTimeoutMs: 10_000, connectTimeoutMs: 15_000 });
  try {
    await zk.exists(PATH);
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await zk.exists(PATH);
      times.push(performance.now() - t);
    }
    return times.sort((a, b) => a - b)[Math.floor(n / 2)]!;
  } finally {
    await zk.close();
  }
}

describe('contender links on a real ensemble', () => {
  it('each contender connects through its own proxies, one per server; zklab observes directly', async () => {
    const state = readState(paths)!;
    const clientPorts = state.servers.map((s) => s.clientPort);
    for (const c of listContenders(paths)) {
      const ports = proxyPorts(c.id);
      expect(ports).toHaveLength(3);
      expect(events(paths, c.id).find((e) => e.event === 'started')!.connect).toBe(ports.map((p) => `127.0.0.1:${p}`).join(','));
      const remote = connectedPorts(c.pid!);
      expect(remote.some((p) => ports.includes(p))).toBe(true);
      expect(remote.filter((p) => clientPorts.includes(p))).toEqual([]);
    }
    expect(directConnectString(state)).toBe(clientPorts.map((p) => `127.0.0.1:${p}`).join(','));
  });

  it('isolating the leading contender: paused, expired on the servers, the next leads, and the old one rejoins as a follower', async () => {
    const lead = await resolveLeader(paths);
    const old = lead.contender.id;
    const oldSession = lead.owner;
    expect(await serverSessions()).toContain(`sid=0x${oldSession}`);
    const t0 = Date.now();
    expect((await isolate(paths, 'leader')).member).toBe(old);

    const paused = await waitFor(() => events(paths, old).find((e): e is ContenderEventOf<'paused'> => e.event === 'paused' && e.t >= t0), `${old} to pause`, 10_000);
    expect(paused.wasLeader).toBe(true);
    // The C client gives up on a silent server after 2/3 of the session timeout; allow scheduling slack.
    expect(paused.t - t0).toBeLessThan((SESSION * 2) / 3 + 700);

    await waitFor(async () => !(await serverSessions()).includes(`sid=0x${oldSession}`), `session 0x${oldSession} to expire on the servers`, 15_000, 100);
    await waitFor(async () => (await withObserver(directConnectString(readState(paths)!), (zk) => zk.exists(lead.znode))) === null, `${lead.znode} to vanish`, 10_000, 100);
    const next = await waitFor(async () => {
      const id = await zkLeaderContender(paths, PATH);
      return id && id !== old && events(paths, id).some((e) => e.event === 'leader' && e.t > t0) ? id : null;
    }, 'the next contender to lead', 15_000, 100);

    await heal(paths, old);
    const expired = await waitFor(() => events(paths, old).find((e) => e.event === 'expired' && e.t > t0), `${old} to learn its session expired`, 20_000);
    const rejoined = await waitFor(() => events(paths, old).find((e) => e.event === 'follower' && e.t > expired.t), `${old} to rejoin as a follower`, 20_000);
    expect(rejoined.session).not.toBe(oldSession);
    expect(rejoined.znode).not.toBe(lead.znode);
    expect(listContenders(paths).find((c) => c.id === old)!.state).toBe('follower');

    // Never a claim under the expired session; the old leadership ended before the new one began.
    expect(events(paths, old).filter((e) => e.event === 'leader' && e.t > t0)).toEqual([]);
    const intervals = leadershipIntervals(allEvents(paths), readLabEvents(paths.labEventsFile), Date.now());
    const oldEnd = intervals.find((i) => i.contender === old && i.session === oldSession)!.end;
    const newStart = intervals.find((i) => i.contender === next && i.start > t0)!.start;
    expect(oldEnd).toBeLessThan(newStart);
    expect(await zkLeaderContender(paths, PATH)).toBe(next);
  }, 120_000);

  it('delay 300 ms on a contender: latency over its links rises by about that much; clear restores it', async () => {
    const c = listContenders(paths).find((x) => x.state === 'follower')!;
    const viaLinks = proxyPorts(c.id).map((p) => `127.0.0.1:${p}`).join(',');
    const base = await readLatency(viaLinks);
    const t0 = Date.now();
    await delay(paths, c.id, 300);
    const slow = await readLatency(viaLinks);
    expect(slow - base).toBeGreaterThan(250);
    expect(slow - base).toBeLessThan(450);
    await clearDelay(paths, c.id);
    const after = await readLatency(viaLinks);
    expect(after - base).toBeLessThan(50);
    // The contender's own session rode it out.
    expect(events(paths, c.id).filter((e) => (e.event === 'expired' || e.event === 'paused') && e.t >= t0)).toEqual([]);
    expect(listContenders(paths).find((x) => x.id === c.id)!.state).toBe('follower');
  }, 90_000);
});
