import { resolveTarget } from '../../faults/targets.js';
import { remember, shown } from '../run/aliases.js';
import { freeze } from './freeze.js';
import type { StepBase, StepKind } from './kind.js';
import { FAULTABLE, serverTarget, target } from './targets.js';

/** SIGSTOP; `resume` thaws it. */
export interface PauseStep extends StepBase {
  readonly kind: 'pause';
  readonly target: string;
}

export const pause: StepKind<PauseStep, typeof target> = {
  kind: 'pause',
  schema: target,
  fault: true,
  build: (name, ctx) => ({ kind: 'pause', target: ctx.target(name, FAULTABLE) }),
  describe: (step) => `pause ${step.target}`,
  server: (step) => serverTarget(step.target),
  async run(ctx, step) {
    const r = await resolveTarget(ctx.lab.paths, step.target);
    remember(ctx.pausedAlias, step.target, r);
    const appliedAt = Date.now();
    return { description: `pause ${shown(step.target, r)}`, detail: await freeze(ctx, r, true), appliedAt };
  },
};
