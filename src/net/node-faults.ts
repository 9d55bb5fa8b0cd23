import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { labNode } from '../lab/nodes.js';
import { nft, netTable, nsName, nsPath, removeNodeNs } from '../lab/node-net.js';
import type { LabPaths } from '../lab/paths.js';
import { isOurs } from '../lab/procs.js';
import type { LabNetState, LabState } from '../lab/state.js';
import { hostRuleset, type KernelNet, nodeRuleset } from './kernel-rules.js';

/**
 * The lab's faults on its node network (`--net ns`), carried out by the kernel: nftables tables made from the lab's
 * rules (src/net/kernel-rules.ts) in every node's namespace and the bridge's, and the kernel's netem for delays.
 */

function kernelNet(paths: LabPaths, state: LabState, net: LabNetState): KernelNet {
  return { table: netTable(paths), addrs: state.nodeNet?.addrs ?? {}, rules: net.rules, losses: net.losses ?? [] };
}

/** Makes every node's table and the bridge's what the lab's rules say (a node without a namespace is skipped). */
export function applyKernelRules(paths: LabPaths, state: LabState, net: LabNetState): void {
  if (!state.nodeNet) return;
  const k = kernelNet(paths, state, net);
  for (const node of Object.keys(state.nodeNet.addrs)) {
    const ns = nsName(paths, node);
    if (existsSync(nsPath(ns))) nft(nodeRuleset(k, node), ns);
  }
  nft(hostRuleset(k));
}

/** True when this kernel has netem (tried on a node's own interface, where a delay would go). */
function netemAt(ns: string): { ok: true } | { ok: false; why: string } {
  const r = spawnSync('tc', ['-n', ns, 'qdisc', 'replace', 'dev', 'eth0', 'root', 'netem', 'delay', '0ms'], {
    encoding: 'utf8',
  });
  if (r.status === 0) return { ok: true };
  return { ok: false, why: (r.stderr || r.error?.message || `exit ${r.status}`).trim() };
}

/**
 * Each delayed member's outgoing packets held back by netem on its interface (round trips to it grow by the
 * delay); a member whose delay went has netem removed. Without netem in the kernel: one line, exit 2.
 */
export function applyKernelDelays(paths: LabPaths, state: LabState, net: LabNetState, before: LabNetState): void {
  if (!state.nodeNet) return;
  for (const d of net.delays) {
    const ns = nsName(paths, d.member);
    if (!existsSync(nsPath(ns))) continue;
    const probe = netemAt(ns);
    if (!probe.ok) {
      throw new UsageError(
        `this kernel has no netem (${probe.why}): a delay on the node network needs it`,
        'load the sch_netem module (or use a kernel with it); `zklab doctor` says whether it is there. ' +
          'A lab on --net proxy delays in its link proxies instead',
      );
    }
    const args = ['-n', ns, 'qdisc', 'replace', 'dev', 'eth0', 'root', 'netem', 'delay', `${d.delayMs}ms`];
    if (d.jitterMs > 0) args.push(`${d.jitterMs}ms`);
    spawnSync('tc', args);
  }
  for (const d of before.delays.filter((x) => !net.delays.some((y) => y.member === x.member))) {
    const ns = nsName(paths, d.member);
    if (existsSync(nsPath(ns))) spawnSync('tc', ['-n', ns, 'qdisc', 'del', 'dev', 'eth0', 'root']);
  }
}

/**
 * Gives back the namespaces and addresses of contenders whose nodes have ended (program gone, no process left): the
 * caller holds the lab lock and writes the state. Resolves their ids.
 */
export function releaseEndedNodes(paths: LabPaths, state: LabState): string[] {
  const net = state.nodeNet;
  if (!net) return [];
  const ended = state.contenders
    .filter((c) => net.addrs[c.id] !== undefined)
    .filter((c) => !isOurs(c.pid, paths.markers) && labNode(paths, c.id, state).pids().length === 0)
    .map((c) => c.id);
  for (const id of ended) removeNodeNs(paths, id);
  if (ended.length > 0) {
    state.nodeNet = {
      ...net,
      addrs: Object.fromEntries(Object.entries(net.addrs).filter(([n]) => !ended.includes(n))),
    };
  }
  return ended;
}
