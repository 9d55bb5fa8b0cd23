import { rmSync } from 'node:fs';
import type { LabPaths } from './paths.js';
import { findMarked, stopProcesses } from './procs.js';
import { deregister } from './registry.js';

/**
 * Stops every process that carries the lab's marker (servers, link daemon, contenders: whether or not the lab's
 * state knows them) and, for a lab made for one command, removes its directory; then forgets it. Looks again
 * until a pass finds nothing, since a process may still be starting when the first pass runs.
 */
export async function clearLab(paths: LabPaths, opts: { removeDir: boolean }): Promise<number> {
  let stopped = 0;
  for (let quiet = 0; quiet < 2; ) {
    const left = findMarked(paths.markers);
    if (left.length === 0) {
      quiet++;
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    quiet = 0;
    await stopProcesses(left, 'SIGKILL').catch(() => undefined);
    stopped += left.length;
  }
  if (opts.removeDir) rmSync(paths.root, { recursive: true, force: true });
  deregister(paths.root);
  return stopped;
}
