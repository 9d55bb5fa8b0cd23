import type { LabPaths } from '../lab/paths.js';
import { isOurs } from '../lab/node/procs.js';
import type { LabState } from '../lab/state.js';
import { contenderLinkSpecs } from './lab-links.js';

/**
 * The one rule for a contender that is gone, and the one code path that forgets its links. `contenders stop` (in
 * the CLI) and the link daemon (when a contender's process dies, whoever killed it) both go through
 * `forgetGoneContenders`; only how the links are closed differs (a request to the daemon, or the daemon's own table).
 */

/**
 * The lab's contenders whose process is gone: its recorded pid no longer runs with the lab's marker (so a pid reused
 * by another program does not count). A contender never comes back under its id, so its links can go for good.
 * A paused (SIGSTOP) or partitioned contender still runs, and is not gone.
 */
export function goneContenders(paths: LabPaths, state: LabState): string[] {
  return state.contenders.filter((c) => !isOurs(c.pid, paths.markers)).map((c) => c.id);
}

/**
 * Closes the links of every gone contender that still has ports recorded (with `close`, given the link ids) and
 * forgets those ports in `state`. The caller holds the lab lock, and writes the state when this returns ids.
 * Resolves the ids of the contenders forgotten.
 */
export async function forgetGoneContenders(
  paths: LabPaths,
  state: LabState,
  close: (linkIds: readonly string[]) => Promise<unknown>,
): Promise<string[]> {
  const ports = state.net?.contenderPorts;
  if (!ports) return [];
  const gone = goneContenders(paths, state).filter((id) => ports[id]);
  if (gone.length === 0) return [];
  await close(gone.flatMap((id) => contenderLinkSpecs(id, state).map((s) => s.id)));
  for (const id of gone) delete ports[id];
  return gone;
}
