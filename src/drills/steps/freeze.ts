import * as faults from '../../faults/service.js';
import type { FaultScope } from '../../faults/scope.js';
import type { Resolved } from '../../faults/targets.js';
import type { StepRunContext } from './kind.js';

/** Freezes (pause) or thaws a contender or server, and keeps the run's frozen set up to date. */
export async function freeze(
  ctx: Pick<StepRunContext, 'lab' | 'signal' | 'frozen'>,
  r: Resolved,
  pause: boolean,
  scope: FaultScope = 'node',
): Promise<string> {
  // A pause returns once the node is frozen (a resume right after must see it so).
  const { pid } = await faults.freeze(ctx.lab.paths, r, pause, { signal: ctx.signal, scope });
  if (pause) ctx.frozen.add(r.name);
  else ctx.frozen.delete(r.name);
  return `pid ${pid}`;
}
