import type { ChildProcess } from 'node:child_process';
import { type Containment, containment, processFrozen } from './node/containment.js';
import { labNodePids, type NodeGroup, nodeEnv, nodeGroup } from './node/group.js';
import type { LabPaths } from './paths.js';
import { findMarked, isStopped, spawnDetached } from './node/procs.js';
import { inNodeNs } from './node/net.js';
import { nodeStartEnv } from './node-start.js';
import { TIME_ANCHOR_ENV, timeAnchor } from './lab-time.js';
import { type LabState, readState } from './state.js';

/**
 * How this lab holds its nodes: as it chose when it was made, wherever a later command runs (another shell may sit
 * in another delegated cgroup, or run with another ZKLAB_CONTAINMENT).
 */
export function labContainment(state: Pick<LabState, 'containment'> | undefined): Containment {
  const chosen = state?.containment;
  return chosen ? { ...chosen, why: 'as the lab chose when it was made' } : containment();
}

/** The containment a new lab records. */
export function newLabContainment(): NonNullable<LabState['containment']> {
  const { kind, base } = containment();
  return { kind, base };
}

/** A node of the lab (zk1, c3), as the lab holds it. */
export function labNode(paths: LabPaths, name: string, state: LabState | undefined = readState(paths)): NodeGroup {
  return nodeGroup(paths, name, labContainment(state));
}

/** Paused: the process is stopped by a signal, or frozen with its node's control group. */
export function isPaused(pid: number): boolean {
  return isStopped(pid) || processFrozen(pid);
}

/** `sh -c` with the cgroup.procs file as $0 and the command as "$@": a fixed script, no user input in it. */
const ENTER_AND_EXEC = 'echo $$ > "$0" || exit 126; exec "$@"';

/**
 * Starts the main process of a node: detached from this command, marked in its environment as the node's, in the
 * node's control group before it can start anything (a process it starts later is born in it), and on the node
 * network in the node's namespace.
 */
export function spawnNode(
  paths: LabPaths,
  name: string,
  state: LabState | undefined,
  command: string,
  args: readonly string[],
  logFile: string,
  opts: { env?: NodeJS.ProcessEnv } = {},
): ChildProcess {
  const node = labNode(paths, name, state);
  node.create();
  // What the fault kinds prepare the node with (src/lab/node-start.ts), then its marker and the lab's true time
  // (lab-time.ts: a clock fault fakes the node's own), which nothing overrides.
  const env = {
    ...(opts.env ?? process.env),
    ...nodeStartEnv({ paths, node: name, state }),
    ...nodeEnv(paths, name),
    [TIME_ANCHOR_ENV]: timeAnchor(),
  };
  // On the node network it runs in its node's namespace: nsenter joins it and becomes the program (the same pid).
  if (state?.nodeNet?.addrs[name] !== undefined) [command, args] = inNodeNs(paths, name, command, args);
  return spawnInGroup(node, command, args, logFile, env);
}

/**
 * Starts `command` detached in a node's control group (made beforehand): the process enters the group itself, then
 * becomes the program, so nothing it starts is born outside. Under markers (no group) `env` is what holds it.
 */
export function spawnInGroup(
  node: NodeGroup,
  command: string,
  args: readonly string[],
  logFile: string,
  env: NodeJS.ProcessEnv,
  opts: { readonly stdoutFile?: string } = {},
): ChildProcess {
  const entry = node.entryFile;
  return entry
    ? spawnDetached('/bin/sh', ['-c', ENTER_AND_EXEC, entry, command, ...args], logFile, { env, ...opts })
    : spawnDetached(command, args, logFile, { env, ...opts });
}

/** Kills these nodes whole (what their programs daemonized too) and removes their control groups. */
export async function killNodes(paths: LabPaths, state: LabState | undefined, names: readonly string[]): Promise<void> {
  const nodes = names.map((n) => labNode(paths, n, state));
  await Promise.all(nodes.map((n) => n.kill()));
  await Promise.all(nodes.map((n) => n.remove()));
}

/** Every live process of the lab: its nodes' (whatever their programs started) and its own (link daemon, prober). */
export function labProcesses(paths: LabPaths, state?: LabState): number[] {
  return [...new Set([...findMarked(paths.markers), ...labNodePids(paths, labContainment(state))])];
}
