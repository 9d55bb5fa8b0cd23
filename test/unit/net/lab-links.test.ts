import { describe, expect, it } from 'vitest';
import { allPeerProxyPorts, allPorts, BLOCK_SIZE, MAX_SERVERS, peerProxyPorts, planServerPorts } from '../../../src/lab/ports.js';
import { emptyState, type LabState } from '../../../src/lab/state.js';
import { contenderLinkSpecs, labMembers, perDirectionDelays, proxiedPeers, serverLinkSpecs } from '../../../src/net/lab-links.js';
import { delay, isolate, split } from '../../../src/net/partition.js';
import { memberNetwork, pairFaults, serversExpectedToServe } from '../../../src/net/status.js';

const BASE = 20_000;

function lab(servers = 3, contenders = 2, net?: LabState['net']): LabState {
  return {
    ...emptyState(),
    basePort: BASE,
    servers: planServerPorts(BASE, servers).map((p) => ({ ...p, name: `zk${p.id}` })),
    contenders: Array.from({ length: contenders }, (_, i) => ({ id: `c${i + 1}`, recipe: 'predecessor', path: '/e', sessionTimeoutMs: 2000, startedAt: 0 })),
    net,
  };
}

describe('peer proxy ports', () => {
  it('give every ordered pair of up to 9 servers its own ports inside the block, apart from the servers\' own', () => {
    const proxies = allPeerProxyPorts(BASE, MAX_SERVERS);
    expect(proxies).toHaveLength(MAX_SERVERS * (MAX_SERVERS - 1) * 2);
    const own = allPorts(planServerPorts(BASE, MAX_SERVERS));
    expect(new Set([...proxies, ...own]).size).toBe(proxies.length + own.length);
    expect(Math.max(...proxies) - BASE).toBeLessThan(BLOCK_SIZE);
  });

  it('do not depend on the number of servers', () => {
    expect(allPeerProxyPorts(BASE, 3)).toEqual(expect.arrayContaining([peerProxyPorts(BASE, 3, 1).quorumPort]));
    expect(allPeerProxyPorts(BASE, 5)).toEqual(expect.arrayContaining(allPeerProxyPorts(BASE, 3)));
  });
});

describe('lab links', () => {
  it('a server keeps its own real ports and reaches the others through the pair\'s proxies', () => {
    const state = lab();
    const zk2 = proxiedPeers(state)(2);
    expect(zk2.get(2)).toEqual({ host: '127.0.0.1', quorumPort: BASE + 11, electionPort: BASE + 21 });
    expect(zk2.get(1)).toEqual({ host: '127.0.0.1', ...peerProxyPorts(BASE, 2, 1) });
    expect(zk2.get(3)).toEqual({ host: '127.0.0.1', ...peerProxyPorts(BASE, 2, 3) });
  });

  it('an election link targets the real port and advertises the reverse pair\'s proxy', () => {
    const specs = serverLinkSpecs(lab());
    expect(specs).toHaveLength(12);
    const e = specs.find((s) => s.id === 'election:zk1->zk3')!;
    expect(e).toMatchObject({ from: 'zk1', to: 'zk3', listenPort: peerProxyPorts(BASE, 1, 3).electionPort, targetPort: BASE + 22 });
    expect(e.advertise).toEqual({ host: '127.0.0.1', port: peerProxyPorts(BASE, 3, 1).electionPort });
    const q = specs.find((s) => s.id === 'quorum:zk1->zk3')!;
    expect(q).toMatchObject({ listenPort: peerProxyPorts(BASE, 1, 3).quorumPort, targetPort: BASE + 12 });
    expect(q.advertise).toBeUndefined();
    expect(serverLinkSpecs(lab(1))).toEqual([]);
  });

  it('a contender gets one client link per server, pinned to recorded ports when there are some', () => {
    const state = lab();
    expect(contenderLinkSpecs('c2', state).map((s) => [s.id, s.listenPort, s.targetPort])).toEqual([
      ['client:c2->zk1', 0, BASE],
      ['client:c2->zk2', 0, BASE + 1],
      ['client:c2->zk3', 0, BASE + 2],
    ]);
    expect(contenderLinkSpecs('c2', state, { zk1: 40001, zk2: 40002, zk3: 40003 }).map((s) => s.listenPort)).toEqual([40001, 40002, 40003]);
    expect(labMembers(state)).toEqual(['zk1', 'zk2', 'zk3', 'c1', 'c2']);
  });

  it('halves a delay per direction, so a round trip gains what the user asked for', () => {
    expect(perDirectionDelays([delay('c1', 300, 50)])).toEqual([{ member: 'c1', delayMs: 150, jitterMs: 25 }]);
  });
});

describe('what the rules do to members', () => {
  it('servers cut off from a majority are not expected to serve', () => {
    const names = (s: LabState) => serversExpectedToServe(s).map((x) => x.name);
    expect(names(lab())).toEqual(['zk1', 'zk2', 'zk3']);
    expect(names(lab(3, 0, { rules: [isolate('zk2')], delays: [], contenderPorts: {} }))).toEqual(['zk1', 'zk3']);
    expect(names(lab(3, 0, { rules: [split([['zk1'], ['zk2'], ['zk3']])], delays: [], contenderPorts: {} }))).toEqual([]);
    expect(names(lab(3, 2, { rules: [isolate('c1')], delays: [], contenderPorts: {} }))).toEqual(['zk1', 'zk2', 'zk3']);
  });

  it('says whom a member cannot reach and how slow it is', () => {
    const state = lab(3, 2, { rules: [split([['zk1', 'c1']], 'reject')], delays: [delay('c2', 300)], contenderPorts: {} });
    expect(memberNetwork(state, 'c1')).toEqual({ cutFrom: ['zk2', 'zk3', 'c2'], mode: 'reject', delayMs: 0, jitterMs: 0 });
    expect(memberNetwork(state, 'c2')).toEqual({ cutFrom: ['zk1', 'c1'], mode: 'reject', delayMs: 300, jitterMs: 0 });
    expect(pairFaults(state)).toContainEqual({ from: 'c2', to: 'zk2', mode: 'pass', delayMs: 300, jitterMs: 0 });
    expect(pairFaults(state)).toContainEqual({ from: 'zk2', to: 'zk1', mode: 'reject', delayMs: 0, jitterMs: 0 });
    expect(pairFaults(state).some((p) => p.from === 'zk2' && p.to === 'zk3')).toBe(false);
  });
});
