import { relative } from 'node:path';
import { UsageError } from '../errors.js';
import type { EntryPoint } from '../entry-points.js';
import { remotePaths, runningContenders, uploadToHost } from '../hosts/lab-hosts.js';
import { placeNodes } from '../hosts/placement.js';
import { signalRemoteNode, spawnRemoteNode, startMasters } from '../hosts/remote-node.js';
import { shipRuntime, hostRuntime } from '../hosts/runtime.js';
import { envArgv, type RemoteEnv, remoteEnv, sendNodeFiles } from '../hosts/node-env.js';
import { SELF_ANCHOR, TIME_ANCHOR_ENV } from '../lab/lab-time.js';
import { nodeStartEnv } from '../lab/node-start.js';
import { waitForExit } from '../lab/node/procs.js';
import { applyHostRules } from '../net/host-faults.js';
import type { LabPaths } from '../lab/paths.js';
import type { ContenderRecord, LabState } from '../lab/state.js';
import { type ChildConfig, encodeChildConfig, type ExecChildConfig } from './child-config.js';
import type { ContenderSpec } from './spec.js';

/**
 * Contenders of a lab on hosts. Each is placed on a host (where `--place` put it when the lab was made, else the
 * least used first: one per host while there are hosts enough, so that a cut aimed at it can tell it from the others
 * by its host) and runs zklab's own program there,
 * on the Node and build sent from here (hosts/runtime.ts), under its host's warden like a server. It writes its
 * events to a FIFO there that the warden relays on the handle's stdout, into its event log here: `contenders list`,
 * inspect and drills read it as a local contender's.
 */

/** What a contender on hosts cannot do yet, refused before the lab changes. */
export function refuseOnHosts(req: ContenderSpec): void {
  if (req.lock)
    throw new UsageError(
      "a lock workload's protected resource is served here by the lab's link daemon, out of reach of the hosts",
      'run lock holders in a lab on this machine (`--net ns`)',
    );
  if (req.recipe === 'curator-latch' || req.recipe === 'kazoo-election')
    throw new UsageError(
      `the ${req.recipe} adapter is not sent to hosts yet`,
      "use zklab's recipes, or --exec with a program installed on the hosts",
    );
}

/**
 * Places new contenders on the lab's hosts and makes those hosts ready: the master connection, the runtime, and the
 * lab's state there (a contender leaves when its lab's state is gone). The caller holds the lab lock and writes the
 * state.
 */
export async function placeContenders(paths: LabPaths, state: LabState, ids: readonly string[]): Promise<void> {
  const hosts = state.hosts!;
  // The hosts in use are those of the servers and of the contenders still running: a new one goes where fewest are.
  const live = new Set([...state.servers.map((s) => s.name), ...runningContenders(paths, state).map((c) => c.id)]);
  const running = (n: string) => live.has(n);
  const taken = Object.fromEntries(Object.entries(hosts.place).filter(([n]) => running(n)));
  const asked = Object.fromEntries(Object.entries(hosts.asked ?? {}).filter(([n]) => ids.includes(n)));
  const place = { ...hosts.place, ...placeNodes(hosts.hosts, ids, asked, taken) };
  state.hosts = { ...hosts, place };
  const used = hosts.hosts.filter((h) => ids.some((id) => place[id] === h.name));
  await startMasters(paths, state, used);
  await Promise.all(
    used.map(async (h) => {
      await shipRuntime(paths, state, h);
      await uploadToHost(paths, state, h, [relative(paths.root, paths.stateFile)]);
      // What each starts with for faults mid-run (its clock file, the clock shim).
      for (const id of ids.filter((i) => place[i] === h.name))
        await sendNodeFiles(paths, state, h, startEnv(paths, state, id));
    }),
  );
}

/** Takes back the places of contenders that never ran (a spawn that failed). */
export function unplaceContenders(state: LabState, ids: readonly string[]): void {
  const hosts = state.hosts!;
  state.hosts = { ...hosts, place: Object.fromEntries(Object.entries(hosts.place).filter(([n]) => !ids.includes(n))) };
}

/**
 * A contender's environment on its host: what the fault kinds start a node with, and its own time anchor (this
 * machine's monotonic clock is not the host's).
 */
function startEnv(paths: LabPaths, state: LabState, id: string): RemoteEnv {
  const r = remoteEnv(paths, state, nodeStartEnv({ paths, node: id, state }));
  return { ...r, env: { ...r.env, [TIME_ANCHOR_ENV]: SELF_ANCHOR } };
}

/** Starts one of zklab's programs as a contender on its host; resolves the pid of its handle here. */
export function launchOnHost(
  paths: LabPaths,
  state: LabState,
  entry: EntryPoint,
  nodeFlags: readonly string[],
  cfg: ChildConfig | ExecChildConfig,
): number {
  const rt = hostRuntime(state);
  const remote = remotePaths(state);
  const events = remote.contenderEvents(cfg.id).replace(/\.jsonl$/, '.fifo');
  const there = { ...cfg, labRoot: remote.root, eventsFile: events };
  // The remote lab's marker, not this one's (see spawnRemoteNode).
  const argv = [
    ...envArgv(startEnv(paths, state, cfg.id)),
    rt.node,
    ...nodeFlags,
    rt.entry(entry),
    remote.nodeMarker,
    `--id=${cfg.id}`,
    encodeChildConfig(there),
  ];
  const child = spawnRemoteNode(paths, state, cfg.id, argv, paths.contenderLog(cfg.id), {
    events: { remote: events, local: paths.contenderEvents(cfg.id) },
  });
  if (child.pid === undefined) throw new Error(`could not start ssh for contender ${cfg.id}`);
  return child.pid;
}

/**
 * Asks contenders on hosts to close their sessions (SIGTERM to their groups there) and waits for their handles
 * here to end with them; a handle killed here first would have its warden kill the program instead.
 */
export async function terminateOnHosts(
  paths: LabPaths,
  state: LabState,
  contenders: readonly ContenderRecord[],
): Promise<void> {
  await Promise.all(contenders.map((c) => signalRemoteNode(paths, state, c.id, 'term').catch(() => [])));
  await waitForExit(
    contenders.flatMap((c) => (c.pid === undefined ? [] : [c.pid])),
    5000,
  );
}

/**
 * The lab's faults in force take in new contenders before they start (a split cuts a newcomer off as one of those
 * not named); a fault that would treat two contenders of one host apart is refused before anything starts.
 */
export async function applyRulesToNewcomers(paths: LabPaths, state: LabState, ids: readonly string[]): Promise<void> {
  const net = state.net;
  if (net && (net.rules.length > 0 || (net.losses?.length ?? 0) > 0)) await applyHostRules(paths, state, net, ids);
}
