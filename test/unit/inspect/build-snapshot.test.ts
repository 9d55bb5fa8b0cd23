import { describe, expect, it } from 'vitest';
import { buildSnapshot } from '../../../src/inspect/build-snapshot.js';
import { leaderNode } from '../../../src/inspect/snapshot.js';
import { NOW, contender, input, server, znode } from './raw-inputs.js';

const byName = (s: ReturnType<typeof buildSnapshot>, name: string) => {
  const n = s.nodes.find((x) => x.name === name);
  if (!n) throw new Error(`no node ${name}`);
  return n;
};

describe('buildSnapshot: leader and order', () => {
  it('makes the lowest sequence the leader, whatever the names sort like', () => {
    const s = buildSnapshot(
      input({
        znodes: [
          znode('/election'),
          znode('/election/zzz-n_0000000002', { owner: 'a2' }),
          znode('/election/aaa-n_0000000005', { owner: 'a5' }),
          znode('/election/mmm-n_0000000010', { owner: 'a10' }),
        ],
        contenders: [contender('c2', 'a2'), contender('c5', 'a5'), contender('c10', 'a10')],
      }),
    );
    expect(s.layout).toBe('sequential');
    expect(s.nodes.map((n) => n.sequence)).toEqual([null, 2, 5, 10]);
    expect(s.nodes.filter((n) => n.leader).map((n) => n.contender)).toEqual(['c2']);
    expect(byName(s, 'zzz-n_0000000002')).toMatchObject({
      state: 'leader',
      sessionId: '0xa2',
      pid: 1002,
      depth: 1,
      ephemeral: true,
    });
    expect(byName(s, 'aaa-n_0000000005').state).toBe('follower');
  });

  it("orders another library's znodes by their suffix too, and lets a foreign znode lead", () => {
    const s = buildSnapshot(
      input({
        znodes: [
          znode('/election'),
          znode('/election/7c1e-n_0000000004', { owner: 'b1' }),
          znode('/election/_c_0b7f2d9e-latch-0000000003', { owner: 'f00d' }),
          znode('/election/_c_9a11e5c0-latch-0000000007', { owner: 'f00e' }),
        ],
        contenders: [contender('c1', 'b1')],
      }),
    );
    expect(s.nodes.slice(1).map((n) => n.sequence)).toEqual([3, 4, 7]);
    const foreign = s.nodes[1]!;
    expect(foreign).toMatchObject({ contender: null, pid: null, sessionId: '0xf00d', leader: true, state: 'foreign' });
    expect(s.nodes[3]).toMatchObject({ contender: null, state: 'foreign', leader: false });
  });

  it('follows the leader rule of program contenders: single-node NAME leads even beside sequential znodes', () => {
    const s = buildSnapshot(
      input({
        znodes: [
          znode('/election'),
          znode('/election/n_0000000001', { owner: 'b1' }),
          znode('/election/leader', { owner: 'b2' }),
        ],
        contenders: [contender('c1', 'b1'), contender('c2', 'b2')],
        leaderRule: { kind: 'single-node', name: 'leader' },
      }),
    );
    expect(s.nodes.filter((n) => n.leader).map((n) => n.contender)).toEqual(['c2']);
  });

  it('takes the leader from ownership, not from what a contender claims', () => {
    const s = buildSnapshot(
      input({
        znodes: [
          znode('/election'),
          znode('/election/n_0000000001', { owner: 'a1' }),
          znode('/election/n_0000000002', { owner: 'a3' }),
        ],
        contenders: [contender('c1', 'a1', { state: 'follower' }), contender('c3', 'a3', { state: 'leader' })],
      }),
    );
    expect(leaderNode(s)?.contender).toBe('c1');
    expect(byName(s, 'n_0000000002').state).toBe('follower');
    expect(s.problems).toEqual(['c3 believes it leads, but the leader znode n_0000000001 belongs to c1']);
  });

  it('holds a belief against the tree only when the tree was read after it: beliefs and facts of one instant', () => {
    const at = (stateSince: number, treeReadAt: number) =>
      buildSnapshot(
        input({
          znodes: [
            znode('/election'),
            znode('/election/n_0000000001', { owner: 'a1' }),
            znode('/election/n_0000000002', { owner: 'a3' }),
          ],
          contenders: [contender('c1', 'a1'), contender('c3', 'a3', { state: 'leader', stateSince })],
          treeReadAt,
        }),
      ).problems;
    // c3 logged its claim after the tree was read: the tree may not show yet the change c3 acted on.
    expect(at(NOW - 100, NOW - 300)).toEqual([]);
    // The tree was read after c3 claimed, and still names c1: that disagreement is real.
    expect(at(NOW - 2000, NOW - 300)).toEqual([
      'c3 believes it leads, but the leader znode n_0000000001 belongs to c1',
    ]);
  });

  it('names every pair of nodes whose probes say both act as the leader now, and only while their nodes live', () => {
    const s = buildSnapshot(
      input({
        znodes: [znode('/election'), znode('/election/n_0000000001', { owner: 'a1' })],
        contenders: [
          contender('c1', 'a1', { node: 7, probed: true }),
          contender('c2', null, { alive: false, node: 5, probed: true }),
          contender('c3', 'a3', { node: 7, probed: false }),
          contender('c4', 'a4', { node: 7, probed: null }),
        ],
      }),
    );
    expect(s.problems).toEqual(['c1 and c2 both act as leader now, by their probes']);
    expect(s.acting).toEqual([
      { id: 'c1', leads: true },
      { id: 'c2', leads: true },
      { id: 'c3', leads: false },
      { id: 'c4', leads: null },
    ]);
    expect(s.absent).toEqual([
      { id: 'c2', pid: 1002, why: 'program dead' },
      { id: 'c3', pid: 1003, why: 'no znode yet' },
      { id: 'c4', pid: 1004, why: 'no znode yet' },
    ]);
  });

  it('marks the leader kill leader names where the two used to differ: a sequential election beside a leader znode, no 9-digit sequences, no persistent leader', () => {
    const s = buildSnapshot(
      input({
        znodes: [
          znode('/election'),
          znode('/election/leader', { owner: 'a9', data: 'published by the app' }),
          znode('/election/x-n_000000001', { owner: 'a1' }),
          znode('/election/y-n_0000000002', { owner: '0' }),
          znode('/election/z-n_0000000003', { owner: 'a3' }),
        ],
        contenders: [contender('c1', 'a1'), contender('c3', 'a3'), contender('c9', 'a9')],
      }),
    );
    expect(s.layout).toBe('sequential');
    expect(s.nodes.filter((n) => n.leader).map((n) => n.name)).toEqual(['z-n_0000000003']);
    expect(byName(s, 'x-n_000000001').sequence).toBeNull();
  });

  it("makes the single-file recipe's leader znode owner the leader", () => {
    const s = buildSnapshot(
      input({
        znodes: [znode('/election'), znode('/election/leader', { owner: 'a2', data: 'c2' })],
        contenders: [contender('c2', 'a2')],
      }),
    );
    expect(s.layout).toBe('single-file');
    expect(leaderNode(s)).toMatchObject({ name: 'leader', contender: 'c2', data: 'c2' });
  });

  it("makes the priority recipe's leader/current owner the leader and nests its paths", () => {
    const s = buildSnapshot(
      input({
        znodes: [
          znode('/election/nodes/c1', { owner: 'a1' }),
          znode('/election/leader/current', { owner: 'a3', data: 'READY' }),
          znode('/election'),
          znode('/election/leader'),
          znode('/election/nodes'),
          znode('/election/leader/elected', { owner: 'a1', data: 'c3' }),
          znode('/election/election'),
          znode('/election/election/g-n_0000000001', { owner: 'a1' }),
        ],
        contenders: [contender('c1', 'a1'), contender('c3', 'a3')],
      }),
    );
    expect(s.layout).toBe('priority');
    expect(s.nodes.map((n) => `${n.depth}:${n.name}`)).toEqual([
      '0:/election',
      '1:election',
      '2:g-n_0000000001',
      '1:leader',
      '2:current',
      '2:elected',
      '1:nodes',
      '2:c1',
    ]);
    expect(s.nodes.filter((n) => n.leader).map((n) => [n.path, n.contender, n.data])).toEqual([
      ['/election/leader/current', 'c3', 'READY'],
    ]);
  });

  it('has no leader while the priority recipe has no leader/current', () => {
    const s = buildSnapshot(
      input({
        znodes: [
          znode('/election'),
          znode('/election/election'),
          znode('/election/election/g-n_0000000001', { owner: 'a1' }),
        ],
      }),
    );
    expect(s.layout).toBe('priority');
    expect(leaderNode(s)).toBeUndefined();
  });
});

describe('buildSnapshot: watches', () => {
  it('merges wchp and wchc across servers, deduplicated, labelled by contender', () => {
    const s = buildSnapshot(
      input({
        znodes: [
          znode('/election'),
          znode('/election/n_0000000001', { owner: 'a1' }),
          znode('/election/n_0000000002', { owner: 'a2' }),
        ],
        contenders: [contender('c1', 'a1'), contender('c2', 'a2'), contender('c3', 'a3')],
        servers: [
          server('zk1', { wchp: new Map([['/election/n_0000000001', ['a2']]]) }),
          server('zk2', {
            wchp: new Map([
              ['/election/n_0000000001', ['a2', 'a3']],
              ['/election/n_0000000002', ['a3']],
            ]),
          }),
          server('zk3', {
            wchc: new Map([
              ['beef', ['/election/n_0000000001']],
              ['a3', ['/election/n_0000000002']],
            ]),
          }),
        ],
      }),
    );
    expect(byName(s, 'n_0000000001').watchers).toEqual(['c2', 'c3', '0xbeef']);
    expect(byName(s, 'n_0000000002').watchers).toEqual(['c3']);
  });

  it('matches sessions however they are spelled', () => {
    const s = buildSnapshot(
      input({
        znodes: [znode('/election'), znode('/election/n_0000000001', { owner: '0x000000A1' })],
        contenders: [contender('c1', '0xa1'), contender('c2', '00A2')],
        servers: [server('zk1', { wchp: new Map([['/election/n_0000000001', ['a2']]]) })],
      }),
    );
    expect(s.nodes[1]).toMatchObject({ contender: 'c1', sessionId: '0xa1', watchers: ['c2'] });
  });

  it("puts the contenders' child watches on the watched parent, only for contenders that can hold them", () => {
    const s = buildSnapshot(
      input({
        contenders: [
          contender('c2', 'a2', { childWatches: ['/election'] }),
          contender('c10', 'a10', { childWatches: ['/election'] }),
          contender('c3', 'a3', { childWatches: ['/election'], alive: false }),
          contender('c4', 'a4', { childWatches: ['/election'], state: 'expired' }),
        ],
      }),
    );
    expect(s.nodes[0]!.childWatchers).toEqual(['c2', 'c10']);
  });

  it("counts a server's child watches as mntr's watch count minus its data watches", () => {
    const s = buildSnapshot(
      input({
        servers: [
          server('zk1', { mntr: new Map([['zk_watch_count', 6]]), wchp: new Map([['/election/a', ['1', '2']]]) }),
          server('zk2', { wchp: new Map() }),
        ],
      }),
    );
    expect(s.servers.map((x) => x.childWatches)).toEqual([4, null]);
  });
});

describe('buildSnapshot: states and faults', () => {
  it('tells paused, dead and superseded owners apart', () => {
    const s = buildSnapshot(
      input({
        znodes: [
          znode('/election'),
          znode('/election/n_0000000001', { owner: 'a1' }),
          znode('/election/n_0000000002', { owner: 'a2' }),
          znode('/election/n_0000000003', { owner: 'old3' }),
          znode('/election/n_0000000004', { owner: 'new3' }),
          znode('/election/n_0000000005', { owner: 'a5' }),
        ],
        contenders: [
          contender('c1', 'a1', { alive: false, state: 'leader' }),
          contender('c2', 'a2', { paused: true }),
          contender('c3', 'new3', { pastSessionIds: ['old3'] }),
          contender('c5', 'a5', { state: 'paused' }),
        ],
      }),
    );
    expect(s.nodes.slice(1).map((n) => [n.contender, n.state])).toEqual([
      ['c1', 'expired'],
      ['c2', 'paused'],
      ['c3', 'expired'],
      ['c3', 'follower'],
      ['c5', 'paused'],
    ]);
    expect(s.problems).toEqual([
      'c1 owns the leader znode n_0000000001 but its process is gone: nobody leads until session 0xa1 expires',
    ]);
  });

  it('reports two znodes of one session: a create retried without looking for its GUID', () => {
    const s = buildSnapshot(
      input({
        znodes: [
          znode('/election'),
          znode('/election/g1-n_0000000001', { owner: 'a1' }),
          znode('/election/g1-n_0000000002', { owner: 'a1' }),
        ],
        contenders: [contender('c1', 'a1', { state: 'leader' })],
      }),
    );
    expect(s.problems).toEqual(['c1 owns 2 znodes under /election']);
  });

  it('claims no TTL from ephemeralOwner: 0 is no owner, and a marker-looking owner is only a session', () => {
    const s = buildSnapshot(
      input({
        znodes: [
          znode('/election'),
          znode('/election/p', { mtime: NOW - 1000 }),
          znode('/election/t', { owner: 'ff00000000001068', mtime: NOW - 1000 }),
        ],
      }),
    );
    expect(byName(s, 'p')).toMatchObject({
      ttl: null,
      ephemeral: false,
      sessionId: null,
      state: 'unknown',
      scheduler: null,
    });
    expect(byName(s, 't')).toMatchObject({
      ttl: null,
      ephemeral: true,
      sessionId: '0xff00000000001068',
      state: 'foreign',
    });
    expect(s.scheduler).toBeNull();
  });

  it('marks paused, partitioned and delayed servers', () => {
    const s = buildSnapshot(
      input({
        servers: [server('zk1'), server('zk2', { paused: true }), server('zk3')],
        partitions: [
          { from: 'zk3', to: 'zk1', fault: 'partition' },
          { from: 'zk1', to: 'zk2', fault: 'delay', delayMs: 150 },
          { from: 'zk2', to: 'zk1', fault: 'delay', delayMs: 300 },
        ],
      }),
    );
    expect(s.servers.map((x) => [x.name, x.mode, x.partitioned, x.delayMs])).toEqual([
      ['zk1', 'leader', true, 300],
      ['zk2', 'paused', false, 300],
      ['zk3', 'follower', true, 0],
    ]);
  });

  it('does not mark servers for the faults of an isolated or delayed contender', () => {
    const s = buildSnapshot(
      input({
        servers: [server('zk1'), server('zk2')],
        partitions: [
          { from: 'c3', to: 'zk1', fault: 'partition' },
          { from: 'zk2', to: 'c3', fault: 'reject' },
          { from: 'c3', to: 'zk2', fault: 'delay', delayMs: 200 },
        ],
      }),
    );
    expect(s.servers.map((x) => [x.name, x.partitioned, x.delayMs])).toEqual([
      ['zk1', false, 0],
      ['zk2', false, 0],
    ]);
    expect(s.partitions).toHaveLength(3);
  });

  it('reports a missing election path and an ensemble without quorum', () => {
    const s = buildSnapshot(
      input({ znodes: [znode('/other')], servers: [server('zk1', { srvr: { mode: 'not-serving' } })] }),
    );
    expect(s).toMatchObject({ exists: false, layout: 'empty', nodes: [] });
    expect(s.problems).toEqual([
      '/election does not exist',
      'no server in view is serving (zk1 not-serving): without a quorum nobody can lead',
    ]);
  });

  it('claims nothing about a quorum when a server in view serves without leading (inspect --connect to a follower)', () => {
    const s = buildSnapshot(input({ servers: [server('23000', { srvr: { mode: 'follower' } })] }));
    expect(s.problems).toEqual([]);
    const observer = buildSnapshot(input({ servers: [server('zk4', { srvr: { mode: 'observer' } })] }));
    expect(observer.problems).toEqual([]);
  });

  it('ignores znodes outside the election path and ages from ctime', () => {
    const s = buildSnapshot(
      input({
        path: '/election/',
        znodes: [znode('/election', { ctime: NOW - 750 }), znode('/elections/x'), znode('/x')],
      }),
    );
    expect(s.nodes.map((n) => [n.path, n.ageMs])).toEqual([['/election', 750]]);
  });

  it('keeps the latest events, oldest first, contender and lab alike', () => {
    const s = buildSnapshot(
      input({
        maxEvents: 2,
        events: [
          { t: 3, source: 'lab', event: 'partition', target: 'zk3', description: 'isolate zk3', mode: 'blackhole' },
          { t: 1, id: 'c1', pid: 1, session: 'a1', znode: '/election/n_1', event: 'joined' },
          { t: 2, id: 'c1', pid: 1, session: 'a1', znode: '/election/n_1', event: 'leader', token: 42 },
        ],
      }),
    );
    expect(s.events).toEqual([
      { t: 2, who: 'c1', event: 'leader', detail: 'token=42' },
      { t: 3, who: 'lab', event: 'partition', detail: 'target=zk3 description=isolate zk3 mode=blackhole' },
    ]);
  });
});
