import { stopContenders } from '../../contenders/service.js';
import { applyKill } from '../../faults/kinds/kill.js';
import { resolveTarget } from '../../faults/targets.js';
import { shown } from '../core/aliases.js';
import type { StepBase, StepKind } from './kind.js';
import { FAULTABLE, serverTarget, target } from './targets.js';

/** A clean stop (SIGTERM): a contender closes its session. */
export interface StopStep extends StepBase {
  readonly kind: 'stop';
  readonly target: string;
}

export const stop: StepKind<StopStep, typeof target> = {
  kind: 'stop',
  schema: target,
  fault: true,
  build: (name, ctx) => ({ kind: 'stop', target: ctx.target(name, FAULTABLE) }),
  describe: (step) => `stop ${step.target}`,
  server: (step) => serverTarget(step.target),
  async run(ctx, step) {
    const paths = ctx.lab.paths;
    const r = await resolveTarget(paths, step.target);
    ctx.frozen.delete(r.name);
    const appliedAt = Date.now();
    if (r.kind === 'contender') await stopContenders(paths, [r.name]);
    else await applyKill(paths, r, 'SIGTERM');
    return { description: `stop ${shown(step.target, r)}`, appliedAt };
  },
};
