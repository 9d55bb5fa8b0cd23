import { z } from 'zod';
import * as faults from '../../faults/service.js';
import { resolveTarget } from '../../faults/targets.js';
import { strict } from '../core/zod-helpers.js';
import { shown } from '../core/aliases.js';
import type { StepBase, StepKind } from './kind.js';
import { FAULTABLE, serverTarget, target } from './targets.js';

/** Drops a fraction of a member's packets, both ways, at random (the node network: `ensemble: { net: ns }`). */
export interface LossStep extends StepBase {
  readonly kind: 'loss';
  readonly target: string;
  readonly percent: number;
}

const fields = {
  target,
  percent: z.number({ error: 'is not a percentage (write a number from 0 to 100)' }).min(0).max(100),
};
const schema = strict(fields);

const describe = (step: LossStep) => `loss ${step.target} ${step.percent}%`;

export const loss: StepKind<LossStep, typeof schema> = {
  kind: 'loss',
  schema,
  fields: Object.keys(fields),
  fault: true,
  build: (v, ctx) => ({ kind: 'loss', target: ctx.target(v.target, FAULTABLE, ['target']), percent: v.percent }),
  describe,
  server: (step) => serverTarget(step.target),
  async run(ctx, step) {
    const r = await resolveTarget(ctx.lab.paths, step.target);
    const appliedAt = Date.now();
    await faults.loss(ctx.lab.paths, r, step.percent);
    return { description: describe(step).replace(step.target, shown(step.target, r)), appliedAt };
  },
};
