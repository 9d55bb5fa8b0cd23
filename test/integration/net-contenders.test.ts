import { createConnection } from 'node:net';
import type { ContenderEventOf } from '../../src/lab/events.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withObserver } from '../../src/zk/observer.js';
import { listContenders, stopContenders } from '../../src/contenders/service.js';
import { fourLetterWord } from '../../src/zk/four-letter.js';
import { ensembleDown, ensembleUp } from '../../src/ensemble/service.js';
import { directConnectString, readState } from '../../src/lab/state.js';
import { applyIsolate } from '../../src/faults/kinds/isolate.js';
import { applyHeal } from '../../src/faults/kinds/heal.js';
import { applyDelay, clearDelay } from '../../src/faults/kinds/delay.js';
import { ZkClient } from '../../src/zk/client.js';
import { events, spawn, zkLeaderContender, zkMembers } from '../helpers/contenders.js';
import { leadershipSpans } from '../helpers/beliefs.js';
import { tempLab } from '../helpers/paths.js';
import { waitFor } from '../helpers/wait.js';
import { connectedPorts } from '../helpers/sockets.js';
import { readFileSync } from 'node:fs';
import { withDaemon } from '../../src/net/control.js';
import type { LinkInfo } from '../../src/net/protocol.js';
import { isStopped, waitForExit } from '../../src/lab/node/procs.js';

const paths = tempLab();
const SESSION = 2000;

/** Whether a connection to the port on loopback is refused (nothing listens). */
const refused = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const s = createConnection({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(false);
    });
    s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED'));
  });
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
      expect(events(paths, c.id).find((e) => e.event === 'started')!.connect).toBe(
        ports.map((p) => `127.0.0.1:${p}`).join(','),
      );
      const remote = connectedPorts(c.pid!);
      expect(remote.some((p) => ports.includes(p))).toBe(true);
      expect(remote.filter((p) => clientPorts.includes(p))).toEqual([]);
    }
    expect(directConnectString(state)).toBe(clientPorts.map((p) => `127.0.0.1:${p}`).join(','));
  });

  it('isolating the leading contender: paused, expired on the servers, the next leads, and the old one rejoins as a follower', async () => {
    // Who leads by ZooKeeper's own znodes, read by the test: isolate('leader') must hit that one.
    const old = (await zkLeaderContender(paths, PATH))!;
    const lead = (await zkMembers(paths, PATH)).get(old)!;
    const oldSession = lead.owner;
    expect(await serverSessions()).toContain(`sid=0x${oldSession}`);
    const t0 = Date.now();
    expect((await applyIsolate(paths, 'leader')).member).toBe(old);

    const paused = await waitFor(
      () => events(paths, old).find((e): e is ContenderEventOf<'paused'> => e.event === 'paused' && e.t >= t0),
      `${old} to pause`,
      10_000,
    );
    expect(paused.wasLeader).toBe(true);
    // The C client gives up on a silent server after 2/3 of the session timeout; allow scheduling slack.
    expect(paused.t - t0).toBeLessThan((SESSION * 2) / 3 + 700);

    await waitFor(
      async () => !(await serverSessions()).includes(`sid=0x${oldSession}`),
      `session 0x${oldSession} to expire on the servers`,
      15_000,
      100,
    );
    await waitFor(
      async () => (await withObserver(directConnectString(readState(paths)!), (zk) => zk.exists(lead.znode))) === null,
      `${lead.znode} to vanish`,
      10_000,
      100,
    );
    const next = await waitFor(
      async () => {
        const id = await zkLeaderContender(paths, PATH);
        return id && id !== old && events(paths, id).some((e) => e.event === 'leader' && e.t > t0) ? id : null;
      },
      'the next contender to lead',
      15_000,
      100,
    );

    await applyHeal(paths, old);
    const expired = await waitFor(
      () => events(paths, old).find((e) => e.event === 'expired' && e.t > t0),
      `${old} to learn its session expired`,
      20_000,
    );
    const rejoined = await waitFor(
      () => events(paths, old).find((e) => e.event === 'follower' && e.t > expired.t),
      `${old} to rejoin as a follower`,
      20_000,
    );
    expect(rejoined.session).not.toBe(oldSession);
    expect(rejoined.znode).not.toBe(lead.znode);
    expect(listContenders(paths).find((c) => c.id === old)!.state).toBe('follower');

    // Never a claim under the expired session; the old leadership ended before the new one began.
    expect(events(paths, old).filter((e) => e.event === 'leader' && e.t > t0)).toEqual([]);
    const spans = leadershipSpans(paths, [old, next]);
    const oldEnd = spans.find((s) => s.id === old && s.start < t0 && s.end > t0)!.end;
    const newStart = spans.find((s) => s.id === next && s.start > t0)!.start;
    expect(oldEnd).toBeLessThan(newStart);
    expect(await zkLeaderContender(paths, PATH)).toBe(next);
  }, 120_000);

  it('delay 300 ms on a contender: latency over its links rises by about that much; clear restores it', async () => {
    const c = listContenders(paths).find((x) => x.state === 'follower')!;
    const viaLinks = proxyPorts(c.id)
      .map((p) => `127.0.0.1:${p}`)
      .join(',');
    const base = await readLatency(viaLinks);
    const t0 = Date.now();
    await applyDelay(paths, c.id, 300);
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

/** The daemon's own list of a contender's links (its proxies, one per server). */
async function daemonLinks(id: string): Promise<LinkInfo[]> {
  const { links } = await withDaemon(paths, (ctl) => ctl.request({ op: 'list' }));
  return links.filter((l) => l.kind === 'client' && l.from === id);
}

describe('contenders that die, on a real ensemble', () => {
  it("the link daemon closes a SIGKILLed contender's links by itself; paused, cut-off and reconnecting ones keep theirs", async () => {
    const [dead, holeDead, resetDead, paused, cut] = await spawn(paths, {
      count: 5,
      path: '/reaper',
      sessionTimeout: SESSION,
    });
    const killed = [dead!, holeDead!, resetDead!];
    const recorded = () => readState(paths)!.net!.contenderPorts;
    const before = { paused: recorded()[paused!.id]!, cut: recorded()[cut!.id]! };
    const rejected = async (id: string) => (await daemonLinks(id)).reduce((n, l) => n + l.stats.rejected, 0);
    try {
      process.kill(paused!.pid!, 'SIGSTOP');
      await waitFor(() => isStopped(paused!.pid!), `${paused!.id} to stop`, 2000);

      // Reset on every attempt, `cut` and `resetDead` have no open connection and keep trying: the daemon looks at
      // such contenders on every tick, since no close would tell of their death. So it does at the paused one, whose
      // connection the reset closes.
      for (const c of [cut!, resetDead!, paused!]) await applyIsolate(paths, c.id, 'reject');
      await waitFor(
        async () => (await rejected(cut!.id)) >= 2 && (await rejected(resetDead!.id)) >= 2,
        'both to try again and be reset',
        15_000,
        100,
      );
      // A blackhole keeps a socket open and silent: the daemon hears of that death from the FIN the kernel sends.
      await applyIsolate(paths, holeDead!.id, 'blackhole');

      // One at a time, so that each is found by its own way: a close (plain, blackhole) or a tick (reset).
      for (const c of killed) {
        const ports = Object.values(recorded()[c.id]!);
        const t0 = Date.now();
        process.kill(c.pid!, 'SIGKILL');
        await waitFor(async () => (await daemonLinks(c.id)).length === 0, `${c.id}'s links to close`, 2000);
        expect(Date.now() - t0).toBeLessThan(1500);
        await waitFor(() => !(c.id in recorded()), `lab.json to forget ${c.id}'s ports`, 5000);
        // Closed as the kernel sees it, not only as the daemon lists it: nothing listens there any more.
        for (const port of ports) expect(await refused(port), `port ${port} of ${c.id}`).toBe(true);
        expect(await waitForExit([c.pid!], 1000)).toEqual([]);
        // Found by the daemon itself (not swept up by the state update that followed another death).
        expect(readFileSync(paths.netLog, 'utf8')).toContain(`contender process gone: ${c.id} (pid ${c.pid})`);
      }

      // The tick that found `resetDead` gone looked at `cut` and the paused one too, and found them alive.
      expect((await daemonLinks(paused!.id)).map((l) => l.port).sort()).toEqual(Object.values(before.paused).sort());
      expect((await daemonLinks(cut!.id)).map((l) => l.port).sort()).toEqual(Object.values(before.cut).sort());
      expect(recorded()[paused!.id]).toEqual(before.paused);
      expect(recorded()[cut!.id]).toEqual(before.cut);

      // Healed, the cut-off one reconnects through the same links.
      await applyHeal(paths, cut!.id);
      await waitFor(
        async () => (await daemonLinks(cut!.id)).some((l) => l.stats.open > 0),
        `${cut!.id} to reconnect`,
        15_000,
        100,
      );
      expect(recorded()[cut!.id]).toEqual(before.cut);

      // `contenders stop` goes the same way, and has its contender's links closed by the time it returns.
      expect(await stopContenders(paths, [cut!.id])).toEqual([cut!.id]);
      expect(await daemonLinks(cut!.id)).toEqual([]);
      expect(recorded()).not.toHaveProperty(cut!.id);
    } finally {
      process.kill(paused!.pid!, 'SIGCONT');
      await applyHeal(paths);
    }
  }, 90_000);
});
