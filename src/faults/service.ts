import type { LabPaths } from '../lab/paths.js';
import { resolve, type Target } from './aim.js';
import { requireState } from '../lab/state.js';
import { checkTargetName, type Resolved } from './targets.js';
import { UsageError } from '../errors.js';
import { isOurs } from '../lab/node/procs.js';
import { armFailpoint as armed } from '../lab/failpoints.js';
import { recordLabEvent } from '../lab/event-log.js';
import { failpointsOf, type FailpointAction } from '../recipes/failpoint-names.js';

/**
 * The one dispatch of the lab's faults, for the CLI, the drills and inspect's keys. A target is a name (`leader`,
 * `zk-leader`, zkN, cN), resolved when the fault runs, or a Resolved one (a drill's remembered alias, a key on a
 * row). Each fault says whom it hit.
 */
export type { Target } from './aim.js';

/**
 * Arms a failpoint in a contender: at the named point of its recipe it crashes, freezes or hangs (once). Refused,
 * with nothing changed, for a server, a program of its own, or a point its recipe does not have.
 */
export async function armFailpoint(
  paths: LabPaths,
  t: Target,
  at: string,
  action: FailpointAction,
): Promise<{ target: Resolved }> {
  if (typeof t === 'string') checkTargetName(requireState(paths), t);
  const target = await resolve(paths, t);
  if (target.kind !== 'contender')
    throw new UsageError(
      `${target.name} is a server; failpoints live in contenders`,
      'name a contender (cN) or leader',
    );
  const rec = requireState(paths).contenders.find((c) => c.id === target.name);
  if (!rec || !isOurs(rec.pid, paths.markers))
    throw new UsageError(
      `${target.name} is not running`,
      'arm a failpoint in a live contender: `zklab contenders list`',
    );
  const known = rec ? failpointsOf(rec.recipe, rec.scheduler ? 'scheduler' : undefined) : [];
  if (known.length === 0)
    throw new UsageError(
      `${target.name} (${rec?.recipe ?? 'unknown'}) has no failpoints`,
      "failpoints exist in zklab's own recipes: predecessor, herd, and the scheduler workload",
    );
  if (!known.includes(at))
    throw new UsageError(`${target.name} has no failpoint "${at}"`, `its failpoints: ${known.join(', ')}`);
  armed(paths, target.name, { at, action });
  recordLabEvent(paths, 'failpoint-armed', { contender: target.name, at, action });
  return { target };
}
