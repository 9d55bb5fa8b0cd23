import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyKill } from '../../src/faults/kinds/kill.js';
import { listContenders, stopContenders } from '../../src/contenders/service.js';
import { withDaemon } from '../../src/net/control.js';
import { ensembleDown, ensembleUp } from '../../src/ensemble/service.js';
import { readState } from '../../src/lab/state.js';
import { allEvents, spawn, zkLeaderContender } from '../helpers/contenders.js';
import { tempLab } from '../helpers/paths.js';
import { waitFor } from '../helpers/wait.js';
import { watchFacts } from '../helpers/zk-facts.js';

const paths = tempLab();

beforeAll(async () => {
  await ensembleUp(paths, { servers: 3 });
});
afterAll(async () => {
  await ensembleDown(paths, { purge: true });
});

function settled(path: string, n: number): boolean {
  const cs = listContenders(paths).filter((c) => c.path === path && c.alive);
  return (
    cs.length === n &&
    cs.filter((c) => c.state === 'leader').length === 1 &&
    cs.filter((c) => c.state === 'follower').length === n - 1
  );
}

describe('--connect: contenders on an ensemble outside the lab', () => {
  it('spawns, lists and kills the leader in a lab of its own, talking to the servers directly', async () => {
    const other = tempLab();
    const connect = readState(paths)!
      .servers.map((s) => `127.0.0.1:${s.clientPort}`)
      .join(',');
    try {
      await spawn(other, { count: 3, path: '/outside', connect });
      await waitFor(
        () => listContenders(other).filter((c) => c.state === 'leader').length === 1,
        'a leader among the outside contenders',
      );
      expect(readState(other)!.servers).toEqual([]);
      const leader = await zkLeaderContender(other, '/outside');
      expect(listContenders(other).find((c) => c.state === 'leader')!.id).toBe(leader);
      await applyKill(other, 'leader', 'SIGTERM');
      await waitFor(async () => {
        const next = await zkLeaderContender(other, '/outside');
        return next !== null && next !== leader;
      }, 'another outside leader');
    } finally {
      await stopContenders(other, 'all');
      await ensembleDown(other, { purge: true });
    }
  });
});

describe('herd vs predecessor on a real ensemble', () => {
  it('herd: every follower holds a child watch on the parent (4 for 5 contenders), no data watches', async () => {
    await spawn(paths, { count: 5, recipe: 'herd', path: '/herd' });
    await waitFor(() => settled('/herd', 5), 'one herd leader and four followers');
    const facts = await waitFor(
      async () => {
        const f = await watchFacts(readState(paths)!);
        return f.childWatches === 4 ? f : null;
      },
      'four child watches on the servers',
      10_000,
    );
    expect(facts.dataWatches).toBe(0);
  });

  it('herd: one leader death wakes every follower; predecessor: exactly one', async () => {
    const t0 = Date.now();
    await applyKill(paths, 'leader', 'SIGTERM');
    await waitFor(() => settled('/herd', 4), 'a new herd leader');
    await waitFor(
      () => allEvents(paths).filter((e) => e.event === 'notified' && e.t > t0).length >= 4,
      'four notifications',
    );
    const herdNotified = new Set(
      allEvents(paths)
        .filter((e) => e.event === 'notified' && e.t > t0)
        .map((e) => e.id),
    );
    expect(herdNotified.size).toBe(4);
    await stopContenders(paths, 'all');
    // Stopped contenders' proxies are closed, not left listening until `down`.
    const { links } = await withDaemon(paths, (ctl) => ctl.request({ op: 'list' }));
    expect(links.filter((l) => l.kind === 'client').map((l) => l.id)).toEqual([]);
    expect(readState(paths)!.net?.contenderPorts).toEqual({});

    await spawn(paths, { count: 5, recipe: 'predecessor', path: '/chain' });
    await waitFor(() => settled('/chain', 5), 'a predecessor chain of five');
    const leader = await zkLeaderContender(paths, '/chain');
    const t1 = Date.now();
    await applyKill(paths, leader!, 'SIGTERM');
    await waitFor(() => settled('/chain', 4), 'a new chain leader');
    const chainNotified = allEvents(paths).filter((e) => e.event === 'notified' && e.t > t1);
    expect(chainNotified).toHaveLength(1);
    await stopContenders(paths, 'all');
  });
});
