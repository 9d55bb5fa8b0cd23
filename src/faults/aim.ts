import { UsageError } from '../errors.js';
import { isOurs } from '../lab/node/procs.js';
import type { LabPaths } from '../lab/paths.js';
import { requireState } from '../lab/state.js';
import { resolveTarget, type Resolved } from './targets.js';

/**
 * A fault's aim: a name (`leader`, `zk-leader`, zkN, cN), resolved when the fault runs, or a Resolved one (a
 * drill's remembered alias, a key on a row). Shared by the kinds (kinds/).
 */
export type Target = string | Resolved;

export const resolve = async (paths: LabPaths, t: Target): Promise<Resolved> =>
  typeof t === 'string' ? resolveTarget(paths, t) : t;

/** A fault on the links of a contender that no longer runs would slow or cut nothing: say so instead. */
export function refuseDeadContender(paths: LabPaths, target: Resolved, what: string): void {
  if (target.kind !== 'contender') return;
  const c = requireState(paths).contenders.find((x) => x.id === target.name);
  if (c && !isOurs(c.pid, paths.markers)) {
    throw new UsageError(
      `contender ${c.id} is not running: ${what} on its links would act on nothing`,
      'name a running one (`zklab contenders list`)',
    );
  }
}
