import { describeStepTimes, ensembleRemove } from '../../ensemble/membership.js';
import { zkLeader } from '../../faults/leader.js';
import type { StepBase, StepKind } from './kind.js';
import { target } from './targets.js';

/** Removes a server by dynamic reconfiguration, then stops it (`zklab ensemble remove`). */
export interface RemoveStep extends StepBase {
  readonly kind: 'remove';
  readonly target: string;
}

export const remove: StepKind<RemoveStep, typeof target> = {
  kind: 'remove',
  summary: 'Remove a server by reconfig, then stop it',
  examples: ['remove: zk3', 'remove: zk-leader'],
  schema: target,
  fault: true,
  build: (name, ctx) => ({ kind: 'remove', target: ctx.target(name, ['zk-leader', 'server']) }),
  describe: (step) => `remove ${step.target} by reconfig`,
  async run(ctx, step) {
    const name = step.target === 'zk-leader' ? (await zkLeader(ctx.lab.paths)).name : step.target;
    const appliedAt = Date.now();
    const r = await ensembleRemove(ctx.lab.paths, name, { signal: ctx.signal });
    return {
      description: `remove ${step.target === name ? name : `${step.target} → ${name}`} by reconfig`,
      detail: `configuration ${r.config.version}: ${describeStepTimes(r.steps)}`,
      appliedAt,
    };
  },
};
