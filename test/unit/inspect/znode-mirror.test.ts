import { describe, expect, it } from 'vitest';
import { ZnodeMirror } from '../../../src/inspect/source/znode-mirror.js';
import { FakeEnsemble, type FakeSession } from '../recipes/fake-zk.js';
import { waitFor } from '../../helpers/wait.js';

/** The mirror as a sorted "path=data" list, to compare with the fake ensemble's own tree. */
function view(m: ZnodeMirror): string[] {
  return m
    .znodes()
    .map((z) => `${z.path}=${z.data}`)
    .sort();
}

function truth(zk: FakeEnsemble, root: string): string[] {
  return [...zk.nodes.keys()]
    .filter((p) => p === root || p.startsWith(`${root}/`))
    .map((p) => `${p}=${zk.data(p)}`)
    .sort();
}

/** Watches the fake ensemble holds for one session, by kind and path: each must be at most 1. */
function armedCounts(zk: FakeEnsemble, s: FakeSession): number[] {
  const tables = zk as unknown as {
    dataWatches: Map<string, Set<{ s: FakeSession }>>;
    childWatches: Map<string, Set<{ s: FakeSession }>>;
  };
  return [...tables.dataWatches.values(), ...tables.childWatches.values()].map(
    (set) => [...set].filter((e) => e.s === s).length,
  );
}

async function mirrored(zk: FakeEnsemble, m: ZnodeMirror, root = '/election'): Promise<void> {
  await waitFor(
    () => m.synced && JSON.stringify(view(m)) === JSON.stringify(truth(zk, root)),
    `the mirror to match ${truth(zk, root).join(', ')} (has ${view(m).join(', ')})`,
    5000,
    5,
  );
}

describe('ZnodeMirror', () => {
  it('follows a nested layout through creates, data changes and deletes', async () => {
    const zk = new FakeEnsemble();
    const admin = await zk.connect();
    for (const p of ['/election', '/election/nodes', '/election/election', '/election/leader'])
      await admin.create(p, '', 'persistent');
    const member = await zk.connect();
    await member.create('/election/nodes/m-', 'c1', 'ephemeral-sequential');
    let changes = 0;
    const m = new ZnodeMirror('/election', () => changes++);
    const observer = await zk.connect();
    m.attach(observer);
    await mirrored(zk, m);

    await member.create('/election/leader/current', 'PROGRESS', 'ephemeral');
    await mirrored(zk, m);
    await member.setData('/election/leader/current', 'READY');
    await mirrored(zk, m);
    await member.create('/election/election/e-', '', 'ephemeral-sequential');
    await mirrored(zk, m);
    await member.delete('/election/leader/current');
    await mirrored(zk, m);
    expect(view(m)).not.toContain('/election/leader/current=READY');
    expect(changes).toBeGreaterThan(3);
    expect(Math.max(...armedCounts(zk, observer))).toBe(1);
  });

  it('says a missing root is missing, and mirrors it once it appears', async () => {
    const zk = new FakeEnsemble();
    const m = new ZnodeMirror('/election', () => undefined);
    const observer = await zk.connect();
    m.attach(observer);
    await waitFor(() => m.synced, 'the first read');
    expect(m.znodes()).toEqual([]);
    const admin = await zk.connect();
    await admin.create('/election', '', 'persistent');
    await admin.create('/election/n_', '', 'ephemeral-sequential');
    await mirrored(zk, m);
    await admin.delete('/election/n_0000000000');
    await admin.delete('/election');
    await waitFor(() => m.znodes().length === 0, 'the root to go');
    await admin.create('/election', 'back', 'persistent');
    await mirrored(zk, m);
  });

  it('never arms a second watch on a path, however many events and resyncs', async () => {
    const zk = new FakeEnsemble();
    const admin = await zk.connect();
    await admin.create('/election', '', 'persistent');
    await admin.create('/election/leader', 'a', 'persistent');
    const m = new ZnodeMirror('/election', () => undefined);
    const observer = await zk.connect();
    m.attach(observer);
    await mirrored(zk, m);
    for (let i = 0; i < 5; i++) {
      m.resync();
      await admin.setData('/election/leader', `v${i}`);
      await admin.create('/election/n_', '', 'ephemeral-sequential');
    }
    await mirrored(zk, m);
    expect(Math.max(...armedCounts(zk, observer))).toBe(1);
    // The root (data and children) and the named `leader` (data, children): nothing on sequential members.
    expect(m.watchCounts()).toEqual({ data: 2, child: 2 });
  });

  it('catches up after a disconnect and starts over on a new session', async () => {
    const zk = new FakeEnsemble();
    const admin = await zk.connect();
    await admin.create('/election', '', 'persistent');
    const m = new ZnodeMirror('/election', () => undefined);
    const first = await zk.connect();
    m.attach(first);
    await mirrored(zk, m);

    first.disconnect();
    m.resync(); // fails with connection loss and retries
    await admin.create('/election/n_', '', 'ephemeral-sequential');
    first.reconnect();
    m.resync();
    await mirrored(zk, m);

    zk.expire(first);
    m.detach();
    await admin.create('/election/n_', '', 'ephemeral-sequential');
    const second = await zk.connect();
    m.attach(second);
    await mirrored(zk, m);
    await admin.delete('/election/n_0000000000');
    await mirrored(zk, m);
    expect(Math.max(...armedCounts(zk, second))).toBe(1);

    // A session replaced while the old one's reads are still in flight: the new one still gets its full read.
    const third = await zk.connect();
    m.attach(second);
    m.attach(third);
    await admin.create('/election/n_', '', 'ephemeral-sequential');
    await mirrored(zk, m);
    expect(armedCounts(zk, third).length).toBeGreaterThan(0);
  });
});
