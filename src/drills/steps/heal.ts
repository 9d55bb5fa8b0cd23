import * as faults from '../../faults/service.js';
import { recalled, shown } from '../core/aliases.js';
import type { StepBase, StepKind } from './kind.js';
import { FAULTABLE_OR_ALL, serverTarget, target } from './targets.js';

/** Lifts partitions and clears delays; `leader` is the contender the latest partition of `leader` hit. */
export interface HealStep extends StepBase {
  readonly kind: 'heal';
  readonly target: string;
}

export const heal: StepKind<HealStep, typeof target> = {
  kind: 'heal',
  schema: target,
  fault: true,
  build: (name, ctx) => ({ kind: 'heal', target: ctx.target(name, FAULTABLE_OR_ALL) }),
  describe: (step) => `heal ${step.target}`,
  server: (step) => serverTarget(step.target),
  async run(ctx, step) {
    const paths = ctx.lab.paths;
    // A drill's heal restores the target's network whole: partitions lifted, delays cleared.
    const r = step.target === 'all' ? undefined : recalled(ctx.partitionedAlias, step.target, 'heal');
    const appliedAt = Date.now();
    const { healed } = await faults.heal(paths, r ?? 'all');
    const { cleared } = await faults.clearDelay(paths, r ?? 'all');
    const lifted = [...healed, ...cleared];
    return {
      description: r ? `heal ${shown(step.target, r)}` : 'heal all',
      detail: lifted.length === 0 ? 'nothing to heal' : `lifted ${lifted.join('; ')}`,
      appliedAt,
    };
  },
};
