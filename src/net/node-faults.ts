import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { labNode } from '../lab/nodes.js';
import { appliedRulesFile, netemOn, netTable, nsName, nsPath, removeNodeNs } from '../lab/node/net.js';
import type { LabPaths } from '../lab/paths.js';
import { isOurs } from '../lab/node/procs.js';
import type { LabNetState, LabState } from '../lab/state.js';
import { hostRuleset, isEmptyRuleset, type KernelNet, nodeRuleset } from './kernel-rules.js';

/**
 * The lab's faults on its node network (`--net ns`), carried out by the kernel: nftables tables made from the lab's
 * rules (src/net/kernel-rules.ts) in every node's namespace and the bridge's, and the kernel's netem for delays.
 */

function kernelNet(paths: LabPaths, state: LabState, net: LabNetState): KernelNet {
  return { table: netTable(paths), addrs: state.nodeNet?.addrs ?? {}, rules: net.rules, losses: net.losses ?? [] };
}

/**
 * Runs each (namespace, script file) pair's `nft -f` at once (nft spends most of its ~20 ms waiting on the kernel,
 * not on a CPU); an empty namespace path means the machine's own. A fixed script: the pairs are its arguments.
 */
const APPLY_ALL = `fail=0; pids=""
while [ $# -gt 1 ]; do
  if [ -n "$1" ]; then nsenter --net="$1" -- nft -f "$2" & else nft -f "$2" & fi
  pids="$pids $!"; shift 2
done
for p in $pids; do wait "$p" || fail=1; done
exit $fail`;

/**
 * Makes every node's table and the bridge's what the lab's rules say (a node without a namespace is skipped). A
 * table whose script is the one last applied there is left as it is: a namespace made afresh forgets its record
 * (createNodeNamespaces), and a namespace never written holds no table, which is what an empty script makes.
 */
export function applyKernelRules(paths: LabPaths, state: LabState, net: LabNetState): void {
  if (!state.nodeNet) return;
  const k = kernelNet(paths, state, net);
  const wanted: [string, string, string][] = Object.keys(state.nodeNet.addrs)
    .map((node): [string, string, string] => [node, nsPath(nsName(paths, node)), nodeRuleset(k, node)])
    .filter(([, ns]) => existsSync(ns));
  wanted.push(['host', '', hostRuleset(k)]);
  const changed = wanted.filter(([name, , script]) => script !== lastApplied(paths, name, script));
  if (changed.length === 0) return;
  mkdirSync(paths.nodeRulesDir, { recursive: true });
  for (const [name, , script] of changed) writeFileSync(appliedRulesFile(paths, `${name}.next`), script);
  const r = spawnSync(
    'sh',
    ['-c', APPLY_ALL, 'apply', ...changed.flatMap(([n, ns]) => [ns, appliedRulesFile(paths, `${n}.next`)])],
    {
      encoding: 'utf8',
    },
  );
  if (r.status !== 0) {
    // What these tables hold is not known now: a record no script equals has each written again next time.
    for (const [name] of changed) writeFileSync(appliedRulesFile(paths, name), '# not known\n');
    throw new Error(`nft: ${(r.stderr || r.error?.message || `exit ${r.status}`).trim()}`);
  }
  for (const [name] of changed) renameSync(appliedRulesFile(paths, `${name}.next`), appliedRulesFile(paths, name));
}

/** The script last applied to `name`'s table; with no record, the empty one (no table) when `script` is empty. */
export function lastApplied(paths: LabPaths, name: string, script: string): string | undefined {
  try {
    return readFileSync(appliedRulesFile(paths, name), 'utf8');
  } catch {
    return isEmptyRuleset(script) ? script : undefined;
  }
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
    // Tried on the node's own interface, where the delay goes.
    const probe = netemOn(ns, 'eth0');
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
