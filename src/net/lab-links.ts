import type { PeerAddress } from '../lab/ports.js';
import { peerProxyPorts } from '../lab/ports.js';
import { upstreams, type LabNetState, type LabState } from '../lab/state.js';
import { linkId } from './link-types.js';
import type { MemberDelay } from '../lab/net-plan.js';
import type { LinkSpec } from './protocol.js';

/**
 * Which links a lab has and where they listen, derived from the lab state alone (no sockets): every ordered pair
 * of servers gets a quorum and an election proxy on fixed ports of the lab's block, every contender one client
 * proxy per server on a port the daemon chose when the contender was spawned.
 */

export const LOOPBACK = '127.0.0.1';

export function emptyNet(): LabNetState {
  return { rules: [], delays: [], contenderPorts: {} };
}

/** Every name a rule may use: the servers (the lab's, or those of an ensemble it was pointed at), then every contender the lab has had. */
export function labMembers(state: LabState): string[] {
  return [...upstreams(state).map((s) => s.name), ...state.contenders.map((c) => c.id)];
}

/** How server `id` reaches each member: itself on its real ports, every other server through the pair's proxies. */
export function proxiedPeers(state: LabState): (id: number) => ReadonlyMap<number, PeerAddress> {
  return (id) =>
    new Map(
      state.servers.map((s) => {
        if (s.id === id) return [s.id, { host: LOOPBACK, quorumPort: s.quorumPort, electionPort: s.electionPort }];
        return [s.id, { host: LOOPBACK, ...peerProxyPorts(state.basePort, id, s.id) }];
      }),
    );
}

/**
 * The server↔server links. An election link rewrites the InitialMessage to advertise the reverse pair's proxy:
 * the higher sid closes a connection from a lower one and connects back to the advertised address.
 */
export function serverLinkSpecs(state: LabState): LinkSpec[] {
  if (state.servers.length < 2) return [];
  const specs: LinkSpec[] = [];
  for (const from of state.servers) {
    for (const to of state.servers) {
      if (from.id === to.id) continue;
      const ports = peerProxyPorts(state.basePort, from.id, to.id);
      const back = peerProxyPorts(state.basePort, to.id, from.id);
      const ends = { from: from.name, to: to.name };
      specs.push(
        { id: linkId({ ...ends, kind: 'quorum' }), ...ends, kind: 'quorum', listenPort: ports.quorumPort, targetHost: LOOPBACK, targetPort: to.quorumPort },
        {
          id: linkId({ ...ends, kind: 'election' }),
          ...ends,
          kind: 'election',
          listenPort: ports.electionPort,
          targetHost: LOOPBACK,
          targetPort: to.electionPort,
          advertise: { host: LOOPBACK, port: back.electionPort },
        },
      );
    }
  }
  return specs;
}

/** A contender's client links, one per server; `ports` (server name → port) pins them, otherwise the daemon picks. */
export function contenderLinkSpecs(id: string, state: LabState, ports: Readonly<Record<string, number>> = {}): LinkSpec[] {
  return upstreams(state).map((s) => ({
    id: linkId({ from: id, to: s.name, kind: 'client' }),
    from: id,
    to: s.name,
    kind: 'client',
    listenPort: ports[s.name] ?? 0,
    targetHost: s.host,
    targetPort: s.port,
  }));
}

/**
 * The delays as the daemon takes them. A user's delay is added round-trip latency (as from one slow network
 * interface), while a link proxy delays each direction by its fault's delay: so each direction gets half.
 */
export function perDirectionDelays(delays: readonly MemberDelay[]): MemberDelay[] {
  return delays.map((d) => ({ member: d.member, delayMs: d.delayMs / 2, jitterMs: d.jitterMs / 2 }));
}
