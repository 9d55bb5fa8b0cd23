import { type CutMode, isDirected, type MemberLoss, type PartitionRule } from '../lab/net-plan.js';
import { tableReset } from '../lab/node/net.js';

/**
 * The lab's network faults as nftables rules, for a lab whose nodes sit on a bridge of their own (`--net ns`). A cut
 * acts where a packet arrives, never where it leaves: a node's kernel does not learn of a partition from its own
 * sends failing, as on a real network. So each node gets a table in its own namespace whose input chain drops (or,
 * mode reject, answers with a reset) what it must not receive; and the machine's own namespace gets one table of the
 * bridge family for what the lab's commands must not receive from a cut-off node (this kernel has no reject in the
 * bridge family: they are only dropped). Pure: the text of the tables.
 */

export interface KernelNet {
  /** The lab's name for its tables (its network's name prefix). */
  readonly table: string;
  /** Every node's address, by name. */
  readonly addrs: Readonly<Record<string, string>>;
  readonly rules: readonly PartitionRule[];
  readonly losses: readonly MemberLoss[];
}

/** Traffic from some nodes (or anyone: other nodes and the lab's commands) to some nodes (or anyone). */
export interface Cut {
  readonly from: readonly string[] | 'any';
  readonly to: readonly string[] | 'any';
  readonly mode: CutMode;
  /** Drop only this percentage, at random. */
  readonly percent?: number;
}

export const set = (addrs: readonly string[]): string => (addrs.length === 1 ? addrs[0]! : `{ ${addrs.join(', ')} }`);

/** The cuts a lab's faults make, over node addresses (or any other name of a node `addrs` maps it to). */
export function cutsOf(net: Pick<KernelNet, 'addrs' | 'rules' | 'losses'>): Cut[] {
  const addr = (name: string): string[] => (net.addrs[name] ? [net.addrs[name]!] : []);
  const cuts: Cut[] = [];
  for (const r of net.rules) {
    if (isDirected(r)) {
      const [from, to] = [addr(r.from), addr(r.to)];
      if (from.length > 0 && to.length > 0) cuts.push({ from, to, mode: r.mode });
    } else if (r.type === 'isolate') {
      const a = addr(r.member);
      if (a.length > 0) cuts.push({ from: a, to: 'any', mode: r.mode }, { from: 'any', to: a, mode: r.mode });
    } else {
      // Members not named form one more group: every node of the lab is in some group.
      const named = new Set(r.groups.flat());
      const rest = Object.keys(net.addrs).filter((m) => !named.has(m));
      const groups = [...r.groups, rest].map((g) => g.flatMap(addr)).filter((g) => g.length > 0);
      for (const [i, g] of groups.entries()) {
        const others = groups.filter((_, k) => k !== i).flat();
        if (others.length > 0) cuts.push({ from: others, to: g, mode: r.mode });
      }
    }
  }
  for (const l of net.losses) {
    const a = addr(l.member);
    if (a.length === 0 || l.percent <= 0) continue;
    const percent = Math.min(100, l.percent);
    cuts.push({ from: a, to: 'any', mode: 'blackhole', percent }, { from: 'any', to: a, mode: 'blackhole', percent });
  }
  return cuts;
}

export const reaches = (cut: Cut, addr: string): boolean => cut.to === 'any' || cut.to.includes(addr);

export function verdicts(match: string, cut: Cut, reject: boolean): string[] {
  const head = `${match}${cut.percent === undefined ? '' : ` numgen random mod 100 < ${cut.percent}`}`;
  if (reject && cut.mode === 'reject') {
    // Both ends of a cut reject: the answer a node's own reject sends back (a reset, port unreachable) must reach
    // the peer it answers, or the peer only ever sees a silence, as with drop.
    return [
      `${match} tcp flags & rst == rst accept`,
      `${match} icmp type destination-unreachable accept`,
      `${head} meta l4proto tcp reject with tcp reset`,
      `${head} reject`,
    ];
  }
  return [`${head} drop`];
}

/** The statements of a node's input chain: what must not reach the node at `addr`. */
function nodeStatements(cuts: readonly Cut[], addr: string): string[] {
  return cuts
    .filter((c) => reaches(c, addr) && (c.from === 'any' || !c.from.includes(addr)))
    .flatMap((c) => verdicts(c.from === 'any' ? 'iifname "eth0"' : `ip saddr ${set(c.from)}`, c, true));
}

/** The statements of the bridge's input chain: what the lab's commands must not receive from cut-off nodes. */
function hostStatements(cuts: readonly Cut[]): string[] {
  return cuts
    .filter((c) => c.to === 'any' && c.from !== 'any')
    .flatMap((c) => verdicts(`ip saddr ${set(c.from as readonly string[])}`, c, false));
}

/** A table made whole in one transaction (made, removed, made again with its rules), or removed when it has none. */
export function table(family: 'inet' | 'bridge', name: string, body: readonly string[]): string {
  const reset = tableReset(family, name);
  if (body.length === 0) return `${reset.join('\n')}\n`;
  const chain = [
    `table ${family} ${name} {`,
    '  chain input {',
    '    type filter hook input priority 0; policy accept;',
    ...body.map((s) => `    ${s}`),
    '  }',
    '}',
  ];
  return `${[...reset, ...chain].join('\n')}\n`;
}

/** True for a script that only removes its table (no fault touches it). */
export const isEmptyRuleset = (script: string): boolean => !script.includes('chain input');

/** The script for the table in one node's namespace. */
export function nodeRuleset(net: KernelNet, node: string): string {
  const addr = net.addrs[node];
  return table('inet', net.table, addr === undefined ? [] : nodeStatements(cutsOf(net), addr));
}

/** The script for the lab's table in the machine's own namespace. */
export function hostRuleset(net: KernelNet): string {
  return table('bridge', net.table, hostStatements(cutsOf(net)));
}

/** The script that removes the lab's table from the machine's own namespace (nothing there: nothing done). */
export function removeHostRuleset(name: string): string {
  return table('bridge', name, []);
}
