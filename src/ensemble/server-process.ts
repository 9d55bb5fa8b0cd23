import type { JvmLaunch } from './jvm.js';
import { serverJvmArgs } from './jvm.js';
import { spawnNode } from '../lab/nodes.js';
import type { LabPaths } from '../lab/paths.js';
import type { LabState } from '../lab/state.js';

/**
 * Starts one ZooKeeper JVM as a node of the lab (its control group, its marker), in its own process group, detached
 * from this CLI, its output appended to logFile. The lab records the pid and owns the process from here on.
 */
export function launchServer(
  paths: LabPaths,
  node: { readonly name: string; readonly state: LabState | undefined },
  launch: JvmLaunch,
  logFile: string,
): number {
  const env = { ...process.env, JVMFLAGS: '' };
  const child = spawnNode(paths, node.name, node.state, launch.java, serverJvmArgs(launch), logFile, { env });
  if (child.pid === undefined) throw new Error(`could not start ${launch.java}`);
  return child.pid;
}
