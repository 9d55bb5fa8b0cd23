import { existsSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { LabPaths } from './paths.js';
import { killLabNodes } from './node/group.js';
import { labContainment, labProcesses } from './nodes.js';
import { removeLabNet } from './node/net.js';
import { stopProcesses } from './node/procs.js';
import { type LabState, readState } from './state.js';
import { deregister, readEntry } from './registry.js';

/** A directory is removed only when it holds something only a lab (or the demo's) makes, or nothing. */
function looksLikeLab(root: string): boolean {
  const names = readdirSync(root);
  return names.length === 0 || [...new LabPaths(root).entries, join(root, 'zklab-demo')].some((f) => existsSync(f));
}

/** How many passes before giving up on a process that will not die (one in uninterruptible sleep, or not ours). */
const MAX_PASSES = 10;

/**
 * Ends every process of the lab: each node whole (a server, a contender with all it started, daemons included), then
 * whatever carries the lab's marker (the link daemon, the prober) or a node's (a probe). Looks again until a pass
 * finds nothing, since a process may still be starting when the first pass runs. Resolves how many it ended.
 */
export async function endLabProcesses(paths: LabPaths, state?: LabState): Promise<number> {
  let ended = await killLabNodes(paths, labContainment(state));
  let quiet = 0;
  for (let pass = 0; pass < MAX_PASSES && quiet < 2; pass++) {
    const left = labProcesses(paths, state);
    if (left.length === 0) {
      quiet++;
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    quiet = 0;
    ended += left.length;
    await stopProcesses(left, 'SIGKILL').catch(() => undefined);
  }
  return ended;
}

/**
 * Ends every process of the lab (whether or not the lab's state knows them), removes its node network if it has
 * one, and, for a lab made for one command, removes its directory; then forgets it. Resolves how many processes it
 * ended.
 * `warden`: clearing on behalf of that warden; the registry entry is forgotten only if it is still that warden's
 * (a new owner may have taken the directory since).
 */
export async function clearLab(
  paths: LabPaths,
  opts: { readonly removeDir: boolean; readonly warden?: number },
): Promise<number> {
  const ended = await endLabProcesses(paths, stateOrNothing(paths));
  removeLabNet(paths);
  if (opts.removeDir && existsSync(paths.root) && looksLikeLab(paths.root))
    rmSync(paths.root, { recursive: true, force: true });
  const entry = readEntry(paths.root);
  if (opts.warden === undefined || entry?.warden?.pid === opts.warden) deregister(paths.root);
  return ended;
}

/**
 * Deletes what a lab makes in its directory (LabPaths.entries), and the directory once nothing else is left in it.
 * `holdingLock`: called under the lab's lock, which stays (its holder lets it go), and so does the directory.
 */
export function removeLabEntries(paths: LabPaths, opts: { readonly holdingLock?: boolean } = {}): void {
  for (const entry of paths.entries)
    if (!(opts.holdingLock && entry === paths.lockFile)) rmSync(entry, { recursive: true, force: true });
  if (!opts.holdingLock && readdirSync(paths.root).length === 0) rmdirSync(paths.root);
}

/** The lab's state if it can be read: a lab being cleared may have lost it, or be half written. */
function stateOrNothing(paths: LabPaths): LabState | undefined {
  try {
    return readState(paths);
  } catch {
    return undefined;
  }
}
