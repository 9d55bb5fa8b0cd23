import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyKill } from '../../src/faults/kinds/kill.js';
import { withObserver } from '../../src/zk/observer.js';
import { listContenders, stopContenders } from '../../src/contenders/service.js';
import { ensembleDown, ensembleUp } from '../../src/ensemble/service.js';
import { directConnectString, readState } from '../../src/lab/state.js';
import { allEvents, events, spawn, zkLeaderContender } from '../helpers/contenders.js';
import { tempLab } from '../helpers/paths.js';
import { waitFor } from '../helpers/wait.js';

const paths = tempLab();

beforeAll(async () => {
  await ensembleUp(paths, { servers: 3 });
});
afterAll(async () => {
  await ensembleDown(paths, { purge: true });
});

function leaders(path: string): string[] {
  return listContenders(paths)
    .filter((c) => c.path === path && c.state === 'leader')
    .map((c) => c.id);
}

async function read(path: string): Promise<{ data: string; owner: string } | null> {
  return withObserver(directConnectString(readState(paths)!), async (zk) => {
    const stat = await zk.exists(path);
    if (!stat) return null;
    const { data } = await zk.getData(path);
    return { data: data.toString('utf8'), owner: stat.ephemeralOwner };
  });
}

describe('single-file recipe', () => {
  const path = '/single';

  it('one leader owns <path>/leader; killing it makes another leader', async () => {
    await spawn(paths, { count: 4, recipe: 'single-file', path });
    const first = await waitFor(async () => {
      const l = leaders(path);
      const zk = await zkLeaderContender(paths, path);
      return l.length === 1 && zk === l[0] ? zk : null;
    }, 'one single-file leader agreed by ZooKeeper');
    const node = await read(`${path}/leader`);
    expect(JSON.parse(node!.data).id).toBe(first);
    const t0 = Date.now();
    await applyKill(paths, 'leader', 'SIGKILL');
    const next = await waitFor(
      async () => {
        const zk = await zkLeaderContender(paths, path);
        return zk && zk !== first && leaders(path).length === 1 && leaders(path)[0] === zk ? zk : null;
      },
      'another single-file leader',
      15_000,
    );
    expect(events(paths, next).some((e) => e.event === 'state' && e.state === 'active' && e.t > t0)).toBe(true);
    const inactive = listContenders(paths).filter((c) => c.path === path && c.alive && c.id !== next);
    for (const c of inactive)
      expect(
        events(paths, c.id)
          .filter((e) => e.event === 'state')
          .at(-1)?.state,
      ).toBe('inactive');
    await stopContenders(paths, 'all');
  });
});

describe('priority recipe (elector)', () => {
  const path = '/prio';

  it('with --no-preempt a leader stays until it goes; then the elector elects the next by priority, PROGRESS → READY', async () => {
    // The first contender leads alone; better ones join later and do not pre-empt it (see src/recipes/priority-decisions.ts).
    const [first] = (
      await spawn(paths, { count: 1, recipe: 'priority', path, priorities: '1', takeoverMs: 300, preempt: false })
    ).map((c) => c.id);
    await waitFor(
      async () => (await read(`${path}/leader/current`))?.data === 'READY',
      'the first contender READY',
      20_000,
    );
    const [top, second] = (
      await spawn(paths, { count: 3, recipe: 'priority', path, priorities: '5,3,2', takeoverMs: 300, preempt: false })
    ).map((c) => c.id) as [string, string, string];
    expect(await zkLeaderContender(paths, path)).toBe(first);
    expect((await read(`${path}/leader/elected`))!.data).toBe(first);

    for (const next of [top, second]) {
      const t0 = Date.now();
      await applyKill(paths, 'leader', 'SIGKILL');
      await waitFor(
        async () => (await read(`${path}/leader/elected`))?.data === next,
        `${next} elected next by priority`,
        20_000,
      );
      await waitFor(
        async () =>
          (await read(`${path}/leader/current`))?.data === 'READY' && (await zkLeaderContender(paths, path)) === next,
        `${next} READY`,
        20_000,
      );
      const seq = events(paths, next)
        .filter((e) => e.t > t0)
        .map((e) => e.event);
      expect(seq.indexOf('progress')).toBeGreaterThan(-1);
      expect(seq.indexOf('ready')).toBeGreaterThan(seq.indexOf('progress'));
      expect(seq.indexOf('leader')).toBeGreaterThan(seq.indexOf('progress'));
      expect(leaders(path)).toEqual([next]);
    }
    expect(allEvents(paths).filter((e) => e.event === 'elector').length).toBeGreaterThanOrEqual(1);
    await stopContenders(paths, 'all');
  });
});
