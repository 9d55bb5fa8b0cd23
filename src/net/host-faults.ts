import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { ProcessError } from '../errors.js';
import { sshHost } from '../hosts/remote-node.js';
import { runningContenders, usedHosts } from '../hosts/lab-hosts.js';
import { appliedRulesFile, netTable } from '../lab/node/net.js';
import type { LabPaths } from '../lab/paths.js';
import { hostOf, type LabHost, type LabNetState, type LabState } from '../lab/state.js';
import { type HostEndpoint, type HostNet, hostNodesRuleset, refuseAmbiguous } from './host-rules.js';
import { lastApplied } from './node-faults.js';

/**
 * The lab's faults on hosts: nftables rules by address and port (host-rules.ts) in a table of the lab's on each
 * host, loaded over SSH (`nft -f -`, the script on stdin). Its SSH port stays open: it is the lab's way to the host,
 * and to heal it.
 */
export async function applyHostRules(
  paths: LabPaths,
  state: LabState,
  net: LabNetState,
  /** Contenders placed and about to start: the rules cover them before they can connect. */
  starting: readonly string[] = [],
): Promise<void> {
  if (!state.hosts) return;
  const plan: Omit<HostNet, 'keep'> = {
    table: netTable(paths),
    endpoints: hostEndpoints(paths, state, starting),
    rules: net.rules,
    losses: net.losses ?? [],
  };
  refuseAmbiguous(plan);
  const jobs = usedHosts(state).flatMap((host) => {
    const script = hostNodesRuleset({ ...plan, keep: [`tcp dport ${host.port} accept`] }, host.name);
    const record = appliedRulesFile(paths, `host-${host.name}`);
    const before = lastApplied(paths, `host-${host.name}`, script);
    if (script === before) return [];
    // What to load to undo it: the script last applied, or (never written) the table's removal; unknown: nothing.
    const undo = existsSync(record)
      ? before?.startsWith('#')
        ? undefined
        : before
      : hostNodesRuleset({ ...plan, rules: [], losses: [], keep: [] }, host.name);
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

/** The lab's servers and running (or starting) contenders on hosts, with what tells their packets apart. */
export function hostEndpoints(paths: LabPaths, state: LabState, starting: readonly string[] = []): HostEndpoint[] {
  const servers = state.servers.flatMap((s) => {
    const host = hostOf(state, s.name);
    if (!host) return [];
    return [
      {
        name: s.name,
        host: host.name,
        addr: host.addr,
        server: { client: s.clientPort, peer: [s.quorumPort, s.electionPort] },
      },
    ];
  });
  const contenders = runningContenders(paths, state).flatMap((c) => {
    const host = hostOf(state, c.id);
    return host ? [{ name: c.id, host: host.name, addr: host.addr }] : [];
  });
  const newcomers = starting.flatMap((id) => {
    const host = hostOf(state, id);
    return host && !contenders.some((c) => c.name === id) ? [{ name: id, host: host.name, addr: host.addr }] : [];
  });
  return [...servers, ...contenders, ...newcomers];
}
