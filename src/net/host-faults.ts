import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { remoteNodeAddrs, sshHost } from '../hosts/remote-node.js';
import { usedHosts } from '../hosts/lab-hosts.js';
import { appliedRulesFile, netTable } from '../lab/node/net.js';
import type { LabPaths } from '../lab/paths.js';
import { hostOf, type LabNetState, type LabState } from '../lab/state.js';
import { isEmptyRuleset, type KernelNet, nodeRuleset } from './kernel-rules.js';

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
    if (script === lastApplied(record, script)) return [];
    return [{ host, script, record }];
  });
  mkdirSync(paths.nodeRulesDir, { recursive: true });
  const failed: string[] = [];
  await Promise.all(
    jobs.map(async ({ host, script, record }) => {
      const r = await sshHost(paths, state, host).run(['nft', '-f', '-'], { input: script });
      if (r.code === 0) writeFileSync(record, script);
      else {
        writeFileSync(record, '# not known\n');
        failed.push(`${host.name}: ${r.stderr.trim() || `exit ${r.code}`}`);
      }
    }),
  );
  if (failed.length > 0) throw new Error(`nft on the lab's hosts: ${failed.join('; ')}`);
}

function lastApplied(record: string, script: string): string | undefined {
  try {
    return readFileSync(record, 'utf8');
  } catch {
    return isEmptyRuleset(script) ? script : undefined;
  }
}
