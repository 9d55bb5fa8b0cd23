import { UsageError } from '../errors.js';
import { isDirected, type MemberLoss, type PartitionRule } from '../lab/net-plan.js';
import { type Cut, cutsOf, reaches, set, table, verdicts } from './kernel-rules.js';

/**
 * The lab's network faults on hosts as nftables rules: one table of the lab's per host. A host holds a server and
 * contenders beside it, sharing its address, so a packet is told to be a node's by its address and its ports: a
 * server listens on its client port and its peer ports (quorum, election) and is the only one on its host to use
 * peer ports; a contender talks to servers' client ports alone. As on the node network, a cut acts where a packet
 * arrives (the input chain, loopback included: a contender and the server beside it talk over it). Contenders on
 * one host are told apart by nothing: a fault must treat them alike (`refuseAmbiguous`). A contender's own data plane
 * (a program's ports, unknown here) is not cut: only its ZooKeeper links. Pure: the text of each host's table.
 */

export interface HostEndpoint {
  readonly name: string;
  readonly host: string;
  readonly addr: string;
  /** A server's ports; absent for a contender. */
  readonly server?: { readonly client: number; readonly peer: readonly number[] };
}

export interface HostNet {
  readonly table: string;
  readonly endpoints: readonly HostEndpoint[];
  readonly rules: readonly PartitionRule[];
  readonly losses: readonly MemberLoss[];
  /** Statements before every cut on this host: its SSH port stays open (the lab's only way to it, and to heal it). */
  readonly keep: readonly string[];
}

const ports = (p: readonly number[]): string => set([...new Set(p)].sort((a, b) => a - b).map(String));

/** What arrives at `t`'s host from the nodes `from` (or anyone) for `t`. */
function matches(net: HostNet, from: readonly HostEndpoint[] | 'any', t: HostEndpoint): string[] {
  const servers = net.endpoints.filter((e) => e.server);
  if (from === 'any') {
    if (!t.server) return [`tcp sport ${ports(servers.map((s) => s.server!.client))}`];
    // And the answers to what it sent other servers: only a server uses peer ports.
    const peers = servers.filter((s) => s !== t).flatMap((s) => s.server!.peer);
    return [
      `tcp dport ${ports([t.server.client, ...t.server.peer])}`,
      ...(peers.length > 0 ? [`tcp sport ${ports(peers)}`] : []),
    ];
  }
  const fs = from.filter((f) => f.server);
  const fc = from.filter((f) => !f.server);
  const addrs = (es: readonly HostEndpoint[]) => set([...new Set(es.map((e) => e.addr))]);
  const out: string[] = [];
  if (t.server) {
    if (fs.length > 0) {
      out.push(`ip saddr ${addrs(fs)} tcp dport ${ports(t.server.peer)}`);
      out.push(`ip saddr ${addrs(fs)} tcp sport ${ports(fs.flatMap((f) => f.server!.peer))}`);
    }
    if (fc.length > 0) out.push(`ip saddr ${addrs(fc)} tcp dport ${t.server.client}`);
  } else if (fs.length > 0) {
    out.push(`ip saddr ${addrs(fs)} tcp sport ${ports(fs.map((f) => f.server!.client))}`);
  }
  return out;
}

/** The script for the lab's table on one host. */
export function hostNodesRuleset(net: HostNet, host: string): string {
  const byName = new Map(net.endpoints.map((e) => [e.name, e]));
  // The cuts over names: each node's name stands for its address in the node network's reading of the faults.
  const cuts = cutsOf({
    addrs: Object.fromEntries(net.endpoints.map((e) => [e.name, e.name])),
    rules: net.rules,
    losses: net.losses,
  });
  const statements = net.endpoints
    .filter((t) => t.host === host)
    .flatMap((t) =>
      cuts
        .filter((c: Cut) => reaches(c, t.name))
        .flatMap((c) => {
          const from = c.from === 'any' ? 'any' : c.from.filter((n) => n !== t.name).map((n) => byName.get(n)!);
          if (from !== 'any' && from.length === 0) return [];
          return matches(net, from, t).flatMap((m) => verdicts(m, c, true));
        }),
    );
  return table('inet', net.table, statements.length === 0 ? [] : [...net.keep, ...statements]);
}

/** How the faults treat a node: its part in each rule and its loss. */
function treatment(net: Pick<HostNet, 'rules' | 'losses'>, node: string): string {
  const parts = net.rules.map((r) => {
    if (isDirected(r)) return `${r.from === node}/${r.to === node}`;
    if (r.type === 'isolate') return String(r.member === node);
    return String(r.groups.findIndex((g) => g.includes(node)));
  });
  return `${parts.join(',')};${net.losses.find((l) => l.member === node)?.percent ?? 0}`;
}

/**
 * Refuses faults that would treat two contenders on one host apart: their packets are told apart by nothing the
 * host's kernel sees here (the same address, ports of their own choosing).
 */
export function refuseAmbiguous(net: Pick<HostNet, 'endpoints' | 'rules' | 'losses'>): void {
  const contenders = net.endpoints.filter((e) => !e.server);
  for (const a of contenders) {
    const b = contenders.find((x) => x !== a && x.host === a.host && treatment(net, x.name) !== treatment(net, a.name));
    if (b)
      throw new UsageError(
        `${a.name} and ${b.name} share the host ${a.host}, and a fault on hosts cannot cut one of them without the other`,
        'give each contender a host of its own (a hosts file with more hosts), or aim at both',
      );
  }
}
