import type { JvmLaunch } from './jvm.js';
import { serverJvmArgs } from './jvm.js';
import { spawnDetached } from '../lab/procs.js';

/**
 * Starts one ZooKeeper JVM in its own process group, detached from this CLI, its output appended to logFile.
 * The lab records the pid and owns the process from here on (`down` stops it).
 */
export function launchServer(launch: JvmLaunch, logFile: string): number {
  const child = spawnDetached(launch.java, serverJvmArgs(launch), logFile, { env: { ...process.env, JVMFLAGS: '' } });
  if (child.pid === undefined) throw new Error(`could not start ${launch.java}`);
  return child.pid;
}
