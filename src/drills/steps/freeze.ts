import * as faults from '../../faults/service.js';
import type { Resolved } from '../../faults/targets.js';
import type { StepRunContext } from './kind.js';

/** SIGSTOPs (pause) or SIGCONTs a contender or server, and keeps the run's frozen set up to date. */
export async function freeze(
  ctx: Pick<StepRunContext, 'lab' | 'signal' | 'frozen'>,
  r: Resolved,
  pause: boolean,
): Promise<string> {
  // A pause returns once the process is frozen (a resume right after must see it so).
  const { pid } = await faults.freeze(ctx.lab.paths, r, pause, { signal: ctx.signal });
  if (pause) ctx.frozen.add(r.name);
  else ctx.frozen.delete(r.name);
  return `pid ${pid}`;
}
