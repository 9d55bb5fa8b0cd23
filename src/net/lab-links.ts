import type { PeerAddress } from '../lab/ports.js';
import { MAX_SERVERS, peerLinkHost, serverName } from '../lab/ports.js';
import { upstreams, type ContenderVia, type LabNetState, type LabState, type ServerRecord } from '../lab/state.js';
import { linkId } from './link-types.js';
import type { MemberDelay } from '../lab/net-plan.js';
import type { LinkSpec } from './protocol.js';

/**
 * Which links a lab has and where they listen, derived from the lab state alone (no sockets): every ordered pair
 * of servers gets a quorum and an election proxy on the pair's own loopback address, every contender one client
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

/**
 * How every server reaches each member: by name (zkN) on its real ports. The names are the same text for every
 * server (as a dynamic configuration must be); each server's own hosts file (serverHostsFile) makes zkN its own
 * pair's link proxy, and its own name itself.
 */
export function proxiedPeers(state: LabState): (id: number) => ReadonlyMap<number, PeerAddress> {
  const peers = new Map(state.servers.map((s) => [s.id, memberAddress(s)]));
  return () => peers;
}

/**
 * A server as a configuration names it: zkN, its real ports, its role. Not its client address: a client that follows
 * the configuration (Curator's EnsembleTracker reads /zookeeper/config) would take the servers' real client ports
 * and leave the lab's link proxies behind. Each server takes its client port from its static config. (A server
 * joined by reconfig must carry one: see joiningSpec.)
 */
export function memberAddress(s: ServerRecord): PeerAddress {
  return { host: s.name, quorumPort: s.quorumPort, electionPort: s.electionPort, role: s.role ?? 'participant' };
}

/**
 * The hosts file of server `id` (Java's jdk.net.hosts.file): itself and localhost on 127.0.0.1, every other
 * possible member zkN at the address of the pair's link proxy. Every id the lab may ever use is listed, so a
 * server added later resolves at once (and no lookup of a missing name is cached as a failure). On the node
 * network (`nodeAddr`: each server id's address on the lab's bridge) every zkN, itself included, is its node.
 */
export function serverHostsFile(
  id: number,
  machineName: string,
  nodeAddr?: (id: number) => string | undefined,
): string {
  const machine = machineName && machineName !== 'localhost' ? ` ${machineName}` : '';
  if (nodeAddr) {
    const lines = ['127.0.0.1 localhost'];
    for (let to = 1; to <= MAX_SERVERS; to++) {
      const addr = nodeAddr(to);
      if (addr !== undefined) lines.push(`${addr} ${serverName(to)}${to === id ? machine : ''}`);
    }
    return `${lines.join('\n')}\n`;
  }
  const lines = [`127.0.0.1 localhost ${serverName(id)}${machine}`];
  for (let to = 1; to <= MAX_SERVERS; to++) if (to !== id) lines.push(`${peerLinkHost(id, to)} ${serverName(to)}`);
  return `${lines.join('\n')}\n`;
}

/**
 * The server↔server links: for each ordered pair, a quorum and an election proxy on the pair's own loopback
 * address and the target's own ports. An election connection's InitialMessage advertises the sender by name, so
 * the higher sid's connect-back resolves through its own hosts file to its own pair's proxy: no rewriting needed.
 */
export function serverLinkSpecs(state: LabState): LinkSpec[] {
  if (state.servers.length < 2) return [];
  const specs: LinkSpec[] = [];
  for (const from of state.servers) {
    for (const to of state.servers) {
      if (from.id === to.id) continue;
      const ends = { from: from.name, to: to.name };
      const listenHost = peerLinkHost(from.id, to.id);
      for (const [kind, port] of [
        ['quorum', to.quorumPort],
        ['election', to.electionPort],
      ] as const) {
        specs.push({
          id: linkId({ ...ends, kind }),
          ...ends,
          kind,
          listenHost,
          listenPort: port,
          targetHost: LOOPBACK,
          targetPort: port,
        });
      }
    }
  }
  return specs;
}

/** A contender's client links, one per server; `ports` (server name → port) pins them, otherwise the daemon picks. */
export function contenderLinkSpecs(
  id: string,
  state: LabState,
  ports: Readonly<Record<string, number>> = {},
  via: ContenderVia = 'all',
): LinkSpec[] {
  return upstreams(state, via).map((s) => ({
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

/**
 * A contender's connect string as the lab's link plan has it now: its own client proxy to each server it may use
 * (all, or the observers with `via`). Null when the plan has no links for it (pointed elsewhere, or gone).
 */
export function plannedConnect(state: LabState, id: string): string | null {
  const ports = state.net?.contenderPorts[id];
  const c = state.contenders.find((x) => x.id === id);
  if (!ports || !c) return null;
  const hosts = upstreams(state, c.via).flatMap((s) =>
    ports[s.name] === undefined ? [] : [`${LOOPBACK}:${ports[s.name]}`],
  );
  return hosts.length === 0 ? null : hosts.join(',');
}
