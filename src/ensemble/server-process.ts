import { closeSync, openSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { dirname } from 'node:path';
import type { JvmLaunch } from './jvm.js';
import { serverJvmArgs } from './jvm.js';
import { ensureDir } from '../lab/fs.js';

/**
 * Starts one ZooKeeper JVM in its own process group, detached from this CLI, its output appended to logFile.
 * The lab records the pid and owns the process from here on (`down` stops it).
 */
export function launchServer(launch: JvmLaunch, logFile: string): number {
  ensureDir(dirname(logFile));
  const fd = openSync(logFile, 'a');
  try {
    const child = spawn(launch.java, serverJvmArgs(launch), {
      detached: true,
      stdio: ['ignore', fd, fd],
      env: { ...process.env, JVMFLAGS: '' },
    });
    if (child.pid === undefined) throw new Error(`could not start ${launch.java}`);
    child.on('error', () => undefined);
    child.unref();
    return child.pid;
  } finally {
    closeSync(fd);
  }
}
