import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { ProcessError } from '../errors.js';
import { remoteNodeAddrs, sshHost } from '../hosts/remote-node.js';
import { usedHosts } from '../hosts/lab-hosts.js';
import { appliedRulesFile, netTable } from '../lab/node/net.js';
import type { LabPaths } from '../lab/paths.js';
import { hostOf, type LabHost, type LabNetState, type LabState } from '../lab/state.js';
import { type KernelNet, nodeRuleset } from './kernel-rules.js';
import { lastApplied } from './node-faults.js';

/**
 * The lab's faults on hosts: the node network's nftables rules (kernel-rules.ts) in a table of the lab's on each
 * host, loaded over SSH (`nft -f -`, the script on stdin). A host has one server, so its address is the node's.
 * Its SSH port stays open: it is the lab's way to the host, and to heal it.
 */
export async function applyHostRules(paths: LabPaths, state: LabState, net: LabNetState): Promise<void> {
  if (!state.hosts) return;
  const jobs = usedHosts(state).flatMap((host) => {
    const nodes = Object.entries(state.hosts!.place).filter(([, h]) => h === host.name);
    const node = nodes[0]?.[0];
    if (node === undefined) return [];
    const k: KernelNet = {
      table: netTable(paths),
      addrs: remoteNodeAddrs(state),
      rules: net.rules,
      losses: net.losses ?? [],
      uplink: 'iifname != "lo"',
      keep: [`tcp dport ${hostOf(state, node)!.port} accept`],
    };
    const script = nodeRuleset(k, node);
    const record = appliedRulesFile(paths, `host-${host.name}`);
    const before = lastApplied(paths, `host-${host.name}`, script);
    if (script === before) return [];
    // What to load to undo it: the script last applied, or (never written) the table's removal; unknown: nothing.
    const undo = existsSync(record)
      ? before?.startsWith('#')
        ? undefined
        : before
      : nodeRuleset({ ...k, rules: [], losses: [] }, node);
    return [{ host, script, record, undo }];
  });
  mkdirSync(paths.nodeRulesDir, { recursive: true });
  const load = async (host: LabHost, script: string): Promise<void> => {
    const r = await sshHost(paths, state, host).run(['nft', '-f', '-'], { input: script });
    if (r.code !== 0) throw new ProcessError(`nft on ${host.name}: ${r.stderr.trim() || `exit ${r.code}`}`);
  };
  const done = await Promise.allSettled(jobs.map((j) => load(j.host, j.script)));
  const failed = done.flatMap((d) => (d.status === 'rejected' ? [d.reason as unknown] : []));
  if (failed.length === 0) {
    for (const j of jobs) writeFileSync(j.record, j.script);
    return;
  }
  // All or nothing: the hosts that took the new rules get their old ones back, so the lab's record (unchanged by a
  // change that failed) stays what the hosts hold. A host whose tables are then not known is written again next time.
  // A host where loading failed holds what it held (`nft -f` is one transaction): its record stands.
  await Promise.all(
    jobs.map(async (j, i) => {
      if (done[i]!.status === 'rejected') return;
      const undone =
        j.undo !== undefined &&
        (await load(j.host, j.undo).then(
          () => true,
          () => false,
        ));
      writeFileSync(j.record, undone ? j.undo! : '# not known\n');
    }),
  );
  throw failed[0];
}
