import { describe, expect, it } from 'vitest';
import { allPorts, BLOCK_SIZE, MAX_SERVERS, peerLinkHost, planServerPorts } from '../../../src/lab/ports.js';
import { emptyState, type LabState } from '../../../src/lab/state.js';
import {
  contenderLinkSpecs,
  labMembers,
  perDirectionDelays,
  plannedConnect,
  proxiedPeers,
  serverHostsFile,
  serverLinkSpecs,
} from '../../../src/net/lab-links.js';
import { delay, isolate, split } from '../../../src/net/partition.js';
import { memberNetwork, pairFaults, serversExpectedToServe } from '../../../src/net/status.js';

const BASE = 20_000;

function lab(servers = 3, contenders = 2, net?: LabState['net']): LabState {
  return {
    ...emptyState(),
    basePort: BASE,
    servers: planServerPorts(BASE, servers).map((p) => ({ ...p, name: `zk${p.id}` })),
    contenders: Array.from({ length: contenders }, (_, i) => ({
      id: `c${i + 1}`,
      recipe: 'predecessor',
      path: '/e',
      sessionTimeoutMs: 2000,
      startedAt: 0,
    })),
    net,
  };
}

describe('peer link addresses', () => {
  it('give every ordered pair of up to 9 servers a loopback address of its own, none of them 127.0.0.1', () => {
    const hosts = new Set<string>();
    for (let from = 1; from <= MAX_SERVERS; from++)
      for (let to = 1; to <= MAX_SERVERS; to++) if (from !== to) hosts.add(peerLinkHost(from, to));
    expect(hosts.size).toBe(MAX_SERVERS * (MAX_SERVERS - 1));
    for (const h of hosts) expect(h).toMatch(/^127\.[1-9]\.[1-9]\.1$/);
  });

  it("keep servers' own ports inside the block", () => {
    expect(Math.max(...allPorts(planServerPorts(BASE, MAX_SERVERS))) - BASE).toBeLessThan(BLOCK_SIZE);
  });
});

describe('lab links', () => {
  it('every server names every member zkN on its real quorum and election ports, with its role (no client address)', () => {
    const state = lab();
    const zk2 = proxiedPeers(state)(2);
    expect(zk2.get(1)).toEqual({ host: 'zk1', quorumPort: BASE + 10, electionPort: BASE + 20, role: 'participant' });
    expect(proxiedPeers(state)(3)).toEqual(zk2);
  });

  it("each server's hosts file makes zkN its own pair's proxy address, and its own name loopback", () => {
    const lines = serverHostsFile(2, 'box').trim().split('\n');
    expect(lines[0]).toBe('127.0.0.1 localhost zk2 box');
    expect(lines).toContain(`${peerLinkHost(2, 1)} zk1`);
    expect(lines).toContain(`${peerLinkHost(2, 9)} zk9`);
    expect(lines).toHaveLength(MAX_SERVERS);
  });

  it("a server link listens on the pair's address at the target's own port and forwards to the real port", () => {
    const specs = serverLinkSpecs(lab());
    expect(specs).toHaveLength(12);
    const e = specs.find((s) => s.id === 'election:zk1->zk3')!;
    expect(e).toMatchObject({
      from: 'zk1',
      to: 'zk3',
      listenHost: '127.1.3.1',
      listenPort: BASE + 22,
      targetHost: '127.0.0.1',
      targetPort: BASE + 22,
    });
    const q = specs.find((s) => s.id === 'quorum:zk3->zk1')!;
    expect(q).toMatchObject({ listenHost: '127.3.1.1', listenPort: BASE + 10, targetPort: BASE + 10 });
    expect(serverLinkSpecs(lab(1))).toEqual([]);
  });

  it('a contender gets one client link per server, pinned to recorded ports when there are some', () => {
    const state = lab();
    expect(contenderLinkSpecs('c2', state).map((s) => [s.id, s.listenPort, s.targetPort])).toEqual([
      ['client:c2->zk1', 0, BASE],
      ['client:c2->zk2', 0, BASE + 1],
      ['client:c2->zk3', 0, BASE + 2],
    ]);
    expect(contenderLinkSpecs('c2', state, { zk1: 40001, zk2: 40002, zk3: 40003 }).map((s) => s.listenPort)).toEqual([
      40001, 40002, 40003,
    ]);
    expect(labMembers(state)).toEqual(['zk1', 'zk2', 'zk3', 'c1', 'c2']);
  });

  it('a contender --via observers gets links to the observers only; its planned connect string follows the plan', () => {
    const state = lab(3, 1);
    state.servers.push({
      id: 4,
      name: 'zk4',
      clientPort: BASE + 3,
      quorumPort: BASE + 13,
      electionPort: BASE + 23,
      role: 'observer',
    });
    expect(contenderLinkSpecs('c1', state, {}, 'observers').map((s) => s.to)).toEqual(['zk4']);
    expect(plannedConnect(state, 'c1')).toBeNull();
    state.net = { rules: [], delays: [], contenderPorts: { c1: { zk1: 41001, zk2: 41002, zk4: 41004 } } };
    expect(plannedConnect(state, 'c1')).toBe('127.0.0.1:41001,127.0.0.1:41002,127.0.0.1:41004');
    state.contenders[0] = { ...state.contenders[0]!, via: 'observers' };
    expect(plannedConnect(state, 'c1')).toBe('127.0.0.1:41004');
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
    expect(names(lab(3, 0, { rules: [split([['zk1'], ['zk2'], ['zk3']])], delays: [], contenderPorts: {} }))).toEqual(
      [],
    );
    expect(names(lab(3, 2, { rules: [isolate('c1')], delays: [], contenderPorts: {} }))).toEqual(['zk1', 'zk2', 'zk3']);
  });

  it('says whom a member cannot reach and how slow it is', () => {
    const state = lab(3, 2, {
      rules: [split([['zk1', 'c1']], 'reject')],
      delays: [delay('c2', 300)],
      contenderPorts: {},
    });
    expect(memberNetwork(state, 'c1')).toEqual({
      cutFrom: ['zk2', 'zk3', 'c2'],
      mode: 'reject',
      delayMs: 0,
      jitterMs: 0,
    });
    expect(memberNetwork(state, 'c2')).toEqual({ cutFrom: ['zk1', 'c1'], mode: 'reject', delayMs: 300, jitterMs: 0 });
    expect(pairFaults(state)).toContainEqual({ from: 'c2', to: 'zk2', mode: 'pass', delayMs: 300, jitterMs: 0 });
    expect(pairFaults(state)).toContainEqual({ from: 'zk2', to: 'zk1', mode: 'reject', delayMs: 0, jitterMs: 0 });
    expect(pairFaults(state).some((p) => p.from === 'zk2' && p.to === 'zk3')).toBe(false);
  });
});
