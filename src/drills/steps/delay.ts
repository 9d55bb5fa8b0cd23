import * as faults from '../../faults/service.js';
import { resolveTarget } from '../../faults/targets.js';
import { formatDuration } from '../../duration.js';
import { duration, strict } from '../core/zod-helpers.js';
import { shown } from '../core/aliases.js';
import type { StepBase, StepKind } from './kind.js';
import { FAULTABLE, serverTarget, target } from './targets.js';

/** Delays a member's links by ms, ± jitter; `heal` clears it. */
export interface DelayStep extends StepBase {
  readonly kind: 'delay';
  readonly target: string;
  readonly ms: number;
  readonly jitter: number;
}

const fields = { target, ms: duration('add ms: 300'), jitter: duration().optional() };
const schema = strict(fields);

const describe = (step: DelayStep) =>
  `delay ${step.target} by ${formatDuration(step.ms)}${step.jitter ? ` ± ${formatDuration(step.jitter)}` : ''}`;

export const delay: StepKind<DelayStep, typeof schema> = {
  kind: 'delay',
  schema,
  fields: Object.keys(fields),
  fault: true,
  build: (v, ctx) => ({
    kind: 'delay',
    target: ctx.target(v.target, FAULTABLE, ['target']),
    ms: v.ms,
    jitter: v.jitter ?? 0,
  }),
  describe,
  server: (step) => serverTarget(step.target),
  async run(ctx, step) {
    const r = await resolveTarget(ctx.lab.paths, step.target);
    const appliedAt = Date.now();
    await faults.delay(ctx.lab.paths, r, step.ms, step.jitter);
    return { description: describe(step).replace(step.target, shown(step.target, r)), appliedAt };
  },
};
