import { formatDuration } from '../duration.js';
import type { LabPaths } from '../lab/paths.js';
import { isOurs } from '../lab/node/procs.js';
import { upstreams, type LabNetState, type LabState, type ServerRecord } from '../lab/state.js';
import { daemonPid } from './lab-network.js';
import { emptyNet, labMembers } from './lab-links.js';
import type { CutMode } from '../lab/net-plan.js';
import { isNoFault } from './link-types.js';
import type { MemberDelay, PartitionRule } from '../lab/net-plan.js';
import { computeLinkFaults, describeLoss, describeRule, ruleCuts } from './partition.js';
import { bridgeName } from '../lab/node/net.js';

/** The lab network as `ensemble status`, `contenders list` and `partition list` show it. */
export interface NetworkStatus {
  /**
   * The link daemon. `needed`: some server of the lab runs; when the daemon does not, every link is down and
   * `ensemble up` repairs it.
   */
  readonly daemon: { readonly running: boolean; readonly pid: number | null; readonly needed: boolean };
  readonly rules: readonly PartitionRule[];
  /** Added round-trip latency per member, as asked for. */
  readonly delays: readonly MemberDelay[];
  /** One line per rule, delay and loss, for humans. */
  readonly faults: readonly string[];
  /** The lab's node network, when it has one: its /24 and bridge (faults are the kernel's); null on the proxy net. */
  readonly nodeNet: { readonly subnet: string; readonly bridge: string } | null;
  /** The hosts a lab on hosts uses (its faults are each host's nftables); null for a lab here. */
  readonly hosts: readonly string[] | null;
}

/** What the network does to one member. */
export interface MemberNetwork {
  /** The members it cannot reach. */
  readonly cutFrom: readonly string[];
  /** How it is cut (the last rule that cuts it), null when it is not. */
  readonly mode: CutMode | null;
  readonly delayMs: number;
  readonly jitterMs: number;
}

export function describeDelay(d: MemberDelay): string {
  return `delay ${d.member} ${formatDuration(d.delayMs)}${d.jitterMs > 0 ? ` + up to ${formatDuration(d.jitterMs)} jitter` : ''}`;
}

export function describeNet(net: LabNetState): string[] {
  return [...net.rules.map(describeRule), ...net.delays.map(describeDelay), ...(net.losses ?? []).map(describeLoss)];
}

export async function networkStatus(paths: LabPaths, state: LabState): Promise<NetworkStatus> {
  const net = state.net ?? emptyNet();
  const pid = await daemonPid(paths);
  // Needed while a server of the lab runs, or while contenders of an outside ensemble go through their links.
  const needed =
    state.servers.some((s) => isOurs(s.pid, paths.markers)) ||
    (state.servers.length === 0 && state.contenders.some((c) => isOurs(c.pid, paths.markers)));
  return {
    daemon: { running: pid !== null, pid, needed },
    rules: net.rules,
    delays: net.delays,
    faults: describeNet(net),
    nodeNet: state.nodeNet ? { subnet: `${state.nodeNet.subnet}.0/24`, bridge: bridgeName(paths) } : null,
    hosts: state.hosts ? [...new Set(Object.values(state.hosts.place))].sort() : null,
  };
}

export function memberNetwork(state: LabState, member: string): MemberNetwork {
  const net = state.net ?? emptyNet();
  const cutFrom = labMembers(state).filter((m) => net.rules.some((r) => ruleCuts(r, member, m)));
  const last = net.rules.findLast((r) => cutFrom.some((m) => ruleCuts(r, member, m)));
  const delay = net.delays.find((d) => d.member === member);
  return { cutFrom, mode: last?.mode ?? null, delayMs: delay?.delayMs ?? 0, jitterMs: delay?.jitterMs ?? 0 };
}

/** The servers that reach a majority of the ensemble (themselves included) through the current partitions. */
export function serversExpectedToServe(state: LabState): ServerRecord[] {
  const net = state.net ?? emptyNet();
  const names = state.servers.map((s) => s.name);
  return state.servers.filter(
    (s) => names.filter((m) => !net.rules.some((r) => ruleCuts(r, s.name, m))).length * 2 > names.length,
  );
}

/** One directed pair of members with a fault between them (server→server, contender→server). */
export interface PairFault {
  readonly from: string;
  readonly to: string;
  /** pass when only delayed. */
  readonly mode: 'pass' | CutMode;
  /** Added round-trip latency: the sum of both ends' delays. */
  readonly delayMs: number;
  readonly jitterMs: number;
}

/**
 * Every pair of members the lab's rules and delays affect, from the state alone (for inspect and reports): towards
 * the servers on the proxy net (its links), between any two nodes on the node network (every packet is cut there).
 */
export function pairFaults(state: LabState): PairFault[] {
  const net = state.net ?? emptyNet();
  const servers = upstreams(state).map((s) => s.name);
  const members = [...servers, ...state.contenders.map((c) => c.id)];
  const targets = state.nodeNet ? members.filter((m) => state.nodeNet!.addrs[m] !== undefined) : servers;
  const pairs = members.flatMap((from) =>
    targets.filter((to) => to !== from).map((to) => ({ id: `${from}->${to}`, from, to })),
  );
  const faults = computeLinkFaults(pairs, net.rules, net.delays);
  return pairs.flatMap((p) => {
    const f = faults.get(p.id)!;
    return isNoFault(f) ? [] : [{ from: p.from, to: p.to, mode: f.mode, delayMs: f.delayMs, jitterMs: f.jitterMs }];
  });
}
