import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLabEvents } from '../../src/lab/event-log.js';
import { probeSrvr } from '../../src/zk/four-letter.js';
import { ensembleDown, ensembleStatus, ensembleUp } from '../../src/ensemble/service.js';
import { ProcessError } from '../../src/errors.js';
import { findMarked, isOurs, processState, signal, waitForExit } from '../../src/lab/node/procs.js';
import { readState, type LabState } from '../../src/lab/state.js';
import { withDaemon } from '../../src/net/control.js';
import { listNetwork } from '../../src/net/service.js';
import { applyIsolate } from '../../src/faults/kinds/isolate.js';
import { applySplit } from '../../src/faults/kinds/split.js';
import { applyHeal } from '../../src/faults/kinds/heal.js';
import { ZkClient } from '../../src/zk/client.js';
import { tempLab } from '../helpers/paths.js';
import { connectedAddresses, listeningAddresses, listeningPeerLinks } from '../helpers/sockets.js';
import { waitFor } from '../helpers/wait.js';
import { quorumLeader } from '../helpers/zk-raw.js';

const paths = tempLab();
let state: LabState;

beforeAll(async () => {
  await ensembleUp(paths, { servers: 3 });
  state = readState(paths)!;
});
afterAll(async () => {
  await ensembleDown(paths, { purge: true });
});

/** Each server's mode by its own srvr, by name. */
async function modes(): Promise<Record<string, string>> {
  const probes = await Promise.all(
    state.servers.map(async (s) => [s.name, (await probeSrvr(s.clientPort, 500)).mode] as const),
  );
  return Object.fromEntries(probes);
}

function server(name: string) {
  return state.servers.find((s) => s.name === name)!;
}

function direct(names: readonly string[]): string {
  return names.map((n) => `127.0.0.1:${server(n).clientPort}`).join(',');
}

async function withClient<T>(names: readonly string[], fn: (zk: ZkClient) => Promise<T>): Promise<T> {
  const zk = await ZkClient.connect({ connect: direct(names), sessionTimeoutMs: 6000, connectTimeoutMs: 15_000 });
  try {
    return await fn(zk);
  } finally {
    await zk.close();
  }
}

/** Waits until exactly one server other than `not` leads and the named servers serve. */
async function newLeader(not: string, serving: readonly string[], timeoutMs: number): Promise<string> {
  return waitFor(
    async () => {
      const m = await modes();
      const leaders = Object.keys(m).filter((n) => m[n] === 'leader');
      return leaders.length === 1 &&
        leaders[0] !== not &&
        serving.every((n) => m[n] === 'leader' || m[n] === 'follower')
        ? leaders[0]
        : null;
    },
    `a new leader other than ${not}`,
    timeoutMs,
    50,
  );
}

describe('server links on a real 3-server ensemble', () => {
  it('up starts the link daemon first; servers reach their peers only through per-pair proxies on loopback', async () => {
    const st = await ensembleStatus(paths);
    expect(st.network.daemon.running).toBe(true);
    const daemon = st.network.daemon.pid!;
    expect(isOurs(daemon, paths.markers)).toBe(true);

    // The dynamic configuration ZooKeeper wrote names every member zkN; each server's own hosts file resolves the
    // names: itself to 127.0.0.1, every peer to an address of that pair alone (127.<from>.<to>.1).
    for (const s of state.servers) {
      const dynamic = readdirSync(paths.serverConfDir(s.name)).find((f) => f.startsWith('zoo.cfg.dynamic.'))!;
      const cfg = readFileSync(join(paths.serverConfDir(s.name), dynamic), 'utf8');
      for (const peer of state.servers)
        expect(cfg).toContain(`server.${peer.id}=zk${peer.id}:${peer.quorumPort}:${peer.electionPort}:participant`);
      // No client addresses: a client that follows /zookeeper/config (Curator) would find the real ports there.
      expect(cfg).not.toContain(';');
      const hosts = readFileSync(paths.serverHostsFile(s.name), 'utf8');
      for (const peer of state.servers)
        expect(hosts).toMatch(
          new RegExp(
            `^${peer.id === s.id ? '127\\.0\\.0\\.1 localhost' : `127\\.${s.id}\\.${peer.id}\\.1`} .*\\bzk${peer.id}\\b`,
            'm',
          ),
        );
    }
    const listening = listeningAddresses(daemon);
    expect(listening.every((a) => a.startsWith('127.'))).toBe(true);
    for (const from of state.servers) {
      for (const to of state.servers) {
        if (from !== to)
          expect(listening).toEqual(
            expect.arrayContaining([
              `127.${from.id}.${to.id}.1:${to.quorumPort}`,
              `127.${from.id}.${to.id}.1:${to.electionPort}`,
            ]),
          );
      }
    }

    // No JVM holds a connection to another server's real quorum or election address (127.0.0.1): only the daemon
    // does. Each reaches its peers at its own pairs' addresses.
    const realPeerAddresses = new Set(
      state.servers.flatMap((s) => [`127.0.0.1:${s.quorumPort}`, `127.0.0.1:${s.electionPort}`]),
    );
    for (const s of state.servers) {
      const remote = connectedAddresses(s.pid!);
      expect(remote.filter((a) => realPeerAddresses.has(a))).toEqual([]);
      for (const a of remote.filter((x) => !x.startsWith('127.0.0.1:')))
        expect(a).toMatch(new RegExp(`^127\\.${s.id}\\.[1-9]\\.1:`));
    }
    const { links } = await withDaemon(paths, (ctl) => ctl.request({ op: 'list' }));
    expect(links).toHaveLength(12);
    const leader = st.leader!;
    for (const f of state.servers.filter((s) => s.name !== leader)) {
      expect(links.find((l) => l.id === `quorum:${f.name}->${leader}`)!.stats.open).toBeGreaterThanOrEqual(1);
    }
  });

  it('isolate zk-leader: the others elect a leader within 10 s, the isolated one stops serving, heal brings every znode everywhere', async () => {
    await withClient(['zk1', 'zk2', 'zk3'], (zk) => zk.create('/net-before', 'b', 'persistent'));
    // The quorum leader by the servers' own srvr, read by the test: isolate('zk-leader') must hit that one.
    const old = (await quorumLeader(state.servers))!.name;
    const others = state.servers.map((s) => s.name).filter((n) => n !== old);
    const t0 = Date.now();
    const r = await applyIsolate(paths, 'zk-leader');
    expect(r.member).toBe(old);

    const leader = await newLeader(old, others, 10_000);
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(others).toContain(leader);
    await waitFor(
      async () => (await probeSrvr(server(old).clientPort, 500)).mode === 'not-serving',
      `${old} to stop serving`,
      10_000,
      50,
    );
    expect(readLabEvents(paths.labEventsFile).find((e) => e.event === 'partition' && e.t >= t0)).toMatchObject({
      target: old,
      mode: 'blackhole',
    });

    await withClient(others, (zk) => zk.create('/net-during', 'd', 'persistent'));
    expect((await probeSrvr(server(old).clientPort, 500)).mode).toBe('not-serving');

    await applyHeal(paths);
    await waitFor(async () => (await modes())[old] === 'follower', `${old} to rejoin as a follower`, 30_000, 100);
    for (const s of state.servers) {
      await withClient([s.name], async (zk) => {
        await zk.sync('/');
        expect(await zk.exists('/net-before'), `/net-before on ${s.name}`).not.toBeNull();
        expect(await zk.exists('/net-during'), `/net-during on ${s.name}`).not.toBeNull();
      });
    }
  }, 90_000);

  it('split zk1 | zk2,zk3: zk1 stops serving, the majority keeps accepting writes', async () => {
    const r = await applySplit(paths, [['zk1'], ['zk2', 'zk3']]);
    expect(r.groups).toEqual([['zk1'], ['zk2', 'zk3']]);
    await waitFor(async () => (await modes()).zk1 === 'not-serving', 'zk1 to stop serving', 15_000, 50);
    await waitFor(
      async () => {
        const m = await modes();
        return [m.zk2, m.zk3].sort().join() === 'follower,leader';
      },
      'zk2 and zk3 to serve with one leader',
      15_000,
      50,
    );
    await withClient(['zk2', 'zk3'], async (zk) => {
      for (let i = 0; i < 20; i++) await zk.create(`/net-split-${i}`, String(i), 'persistent');
    });
    expect((await modes()).zk1).toBe('not-serving');

    await applyHeal(paths, 'zk2'); // healing any member of the split lifts it whole
    await waitFor(
      async () => Object.values(await modes()).every((m) => m === 'leader' || m === 'follower'),
      'all three to serve',
      30_000,
      100,
    );
    await withClient(['zk1'], async (zk) => {
      await zk.sync('/');
      expect(await zk.exists('/net-split-19')).not.toBeNull();
    });
  }, 90_000);

  it("--mode reject resets the isolated server's connections instead of holding them", async () => {
    const follower = Object.entries(await modes()).find(([, m]) => m === 'follower')![0];
    await applyIsolate(paths, follower, 'reject');
    await waitFor(async () => (await modes())[follower] === 'not-serving', `${follower} to stop serving`, 15_000, 50);
    const rejected = await waitFor(
      async () => {
        const l = await listNetwork(paths);
        const touching = l.faultyLinks.filter((k) => k.from === follower || k.to === follower);
        const n = touching.reduce((sum, k) => sum + k.stats.rejected, 0);
        return touching.every((k) => k.fault.mode === 'reject' && k.stats.heldBytes === 0) && n > 0 ? n : null;
      },
      'connection attempts to be reset',
      15_000,
      100,
    );
    expect(rejected).toBeGreaterThan(0);
    await applyHeal(paths, follower);
    await waitFor(async () => (await modes())[follower] === 'follower', `${follower} to rejoin`, 30_000, 100);
  }, 90_000);

  it('a dead link daemon shows in status, blocks faults, and `up` restarts it with the recorded partitions', async () => {
    const follower = Object.entries(await modes()).find(([, m]) => m === 'follower')![0];
    await applyIsolate(paths, follower);
    const before = (await ensembleStatus(paths)).network.daemon.pid!;
    signal(before, 'SIGKILL');
    await waitForExit([before], 5000);
    const st = await ensembleStatus(paths);
    expect(st.network.daemon).toMatchObject({ running: false, needed: true });
    expect(st.network.faults).toEqual([`isolate ${follower} (blackhole)`]);
    await expect(applyHeal(paths)).rejects.toBeInstanceOf(ProcessError);

    const r = await ensembleUp(paths);
    expect(r.outcome).toBe('repaired');
    expect(r.status.network.daemon.running).toBe(true);
    expect(r.status.network.daemon.pid).not.toBe(before);
    const listing = await listNetwork(paths);
    expect(listing.linkCount).toBe(12);
    expect(listing.rules).toEqual([{ type: 'isolate', member: follower, mode: 'blackhole' }]);
    expect(listing.faultyLinks.every((k) => k.from === follower || k.to === follower)).toBe(true);
    const others = state.servers.map((s) => s.name).filter((n) => n !== follower);
    await newLeader(follower, others, 30_000);
    expect((await modes())[follower]).toBe('not-serving');

    await applyHeal(paths);
    await waitFor(
      async () => Object.values(await modes()).every((m) => m === 'leader' || m === 'follower'),
      'all three to serve',
      30_000,
      100,
    );
  }, 120_000);

  it('down stops the link layer too: no daemon or proxy survives and the proxy ports are free', async () => {
    const daemon = (await ensembleStatus(paths)).network.daemon.pid!;
    const r = await ensembleDown(paths);
    expect(r.stopped).toBe(4);
    expect(processState(daemon) === undefined || processState(daemon) === 'Z').toBe(true);
    expect(findMarked(paths.markers)).toEqual([]);
    expect(existsSync(paths.controlSocket)).toBe(false);
    expect(await listeningPeerLinks(state.servers)).toEqual([]);
    const st = await ensembleStatus(paths);
    expect(st.network).toMatchObject({ daemon: { running: false, needed: false }, rules: [], delays: [] });
  });
});
