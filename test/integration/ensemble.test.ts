import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fourLetterWord, parseSrvr, probeSrvr } from '../../src/zk/four-letter.js';
import { ensembleDown, ensembleStatus, ensembleUp, restartServers } from '../../src/ensemble/service.js';
import { killServer, pauseServer } from '../../src/faults/server-signals.js';
import { zkLeader } from '../../src/faults/leader.js';
import { findMarked, processState, signal, waitForExit } from '../../src/lab/node/procs.js';
import { isFrozen } from '../helpers/frozen.js';
import { readState, type LabState } from '../../src/lab/state.js';
import { ZkClient } from '../../src/zk/client.js';
import { tempLab } from '../helpers/paths.js';
import { waitFor } from '../helpers/wait.js';
import { listeningAddresses } from '../helpers/sockets.js';

const paths = tempLab();
let state: LabState;

/** Modes as the servers themselves report them. */
async function modes(): Promise<string[]> {
  return Promise.all(state.servers.map(async (s) => (await probeSrvr(s.clientPort, 500)).mode));
}

function connectString(): string {
  return state.servers.map((s) => `127.0.0.1:${s.clientPort}`).join(',');
}

beforeAll(async () => {
  await ensembleUp(paths, { servers: 3 });
  state = readState(paths)!;
});

afterAll(async () => {
  await ensembleDown(paths, { purge: true });
});

describe('a real 3-server ensemble', () => {
  it('has one leader and two followers by srvr', async () => {
    const m = await modes();
    expect(m.filter((x) => x === 'leader')).toHaveLength(1);
    expect(m.filter((x) => x === 'follower')).toHaveLength(2);
  });

  it('listens only on loopback (no AdminServer) and answers only whitelisted four-letter words', async () => {
    for (const s of state.servers) {
      const listening = listeningAddresses(s.pid!);
      expect(listening).toContain(`127.0.0.1:${s.clientPort}`);
      expect(listening.every((a) => a.startsWith('127.0.0.1:'))).toBe(true);
      expect(listening.some((a) => a.endsWith(':8080'))).toBe(false);
    }
    expect(await fourLetterWord(state.servers[0]!.clientPort, 'dump')).toMatch(/not in the whitelist/);
  });

  it('creates TTL znodes (extendedTypesEnabled) and reaps them within seconds', async () => {
    const zk = await ZkClient.connect({ connect: connectString(), sessionTimeoutMs: 4000, connectTimeoutMs: 10_000 });
    try {
      await zk.create('/ttl-proof', 'x', 'persistent-ttl', 500);
      expect(await zk.exists('/ttl-proof')).not.toBeNull();
      await waitFor(async () => (await zk.exists('/ttl-proof')) === null, 'the TTL znode to be reaped', 15_000, 200);
    } finally {
      await zk.close();
    }
  });

  it('status reports every server from its own answers', async () => {
    const st = await ensembleStatus(paths);
    expect(st.quorum).toBe(true);
    expect(st.servers.map((s) => s.name)).toEqual(['zk1', 'zk2', 'zk3']);
    for (const s of st.servers) {
      const own = parseSrvr(await fourLetterWord(s.clientPort, 'srvr'));
      expect(s.mode).toBe(own.mode);
      expect(s.pid).toBeGreaterThan(0);
    }
  });

  it('a paused follower stops answering and serves again after resume', async () => {
    const st = await ensembleStatus(paths);
    const follower = st.servers.find((s) => s.mode === 'follower')!;
    await pauseServer(paths, follower.name, true);
    await waitFor(() => isFrozen(follower.pid!), `${follower.name} to be frozen`);
    await expect(fourLetterWord(follower.clientPort, 'srvr', 700)).rejects.toThrow(/timed out/);
    expect((await ensembleStatus(paths)).servers.find((s) => s.name === follower.name)!.mode).toBe('paused');
    await pauseServer(paths, follower.name, false);
    await waitFor(
      async () => (await probeSrvr(follower.clientPort, 500)).mode === 'follower',
      `${follower.name} to serve again`,
    );
  });

  it('kill zk-leader: the other two elect a new leader', async () => {
    const old = await zkLeader(paths);
    await killServer(paths, old.name, 'SIGKILL');
    await waitFor(
      async () => {
        const m = await modes();
        return m.filter((x) => x === 'leader').length === 1 && m[old.id - 1] === 'down';
      },
      'a new leader among the survivors',
      30_000,
    );
    const leader = await zkLeader(paths);
    expect(leader.name).not.toBe(old.name);
  });

  it('up repairs a server that died, and restart brings one back with its data', async () => {
    const r = await ensembleUp(paths);
    expect(r.outcome).toBe('repaired');
    expect((await modes()).every((m) => m === 'leader' || m === 'follower')).toBe(true);
    const again = await ensembleUp(paths);
    expect(again.outcome).toBe('already-up');
    const st = await restartServers(paths, 'zk1');
    expect(st.quorum).toBe(true);
    expect((await modes()).filter((m) => m === 'leader')).toHaveLength(1);
  });

  it('detects servers killed behind its back and repairs them with up', async () => {
    const pids = readState(paths)!.servers.map((s) => s.pid!);
    for (const p of pids) signal(p, 'SIGKILL');
    await waitForExit(pids, 10_000);
    const st = await ensembleStatus(paths);
    expect(st.servers.every((s) => s.mode === 'down' && s.pid === null)).toBe(true);
    // One server alone cannot form a quorum: refused at once, with nothing started.
    const asked = Date.now();
    await expect(restartServers(paths, 'zk1')).rejects.toThrow(
      'restarting zk1 cannot form a quorum: zk2 and zk3 are down (a quorum is 2 of the 3 voters)',
    );
    expect(Date.now() - asked).toBeLessThan(2000);
    expect((await ensembleStatus(paths)).servers.every((s) => s.mode === 'down' && s.pid === null)).toBe(true);
    const r = await ensembleUp(paths);
    expect(r.outcome).toBe('repaired');
    expect(r.status.quorum).toBe(true);
  });

  it('down stops every process and leaves none behind', async () => {
    const pids = readState(paths)!.servers.map((s) => s.pid!);
    await ensembleDown(paths);
    for (const p of pids) expect(processState(p) === undefined || processState(p) === 'Z').toBe(true);
    expect(findMarked(paths.markers)).toEqual([]);
    expect((await ensembleStatus(paths)).servers.every((s) => s.mode === 'down')).toBe(true);
  });
});
