import { z } from 'zod';
import type { FaultScope } from '../../faults/scope.js';
import { resolveTarget } from '../../faults/targets.js';
import { strict } from '../core/zod-helpers.js';
import { remember, shown } from '../core/aliases.js';
import { freeze } from './freeze.js';
import type { StepBase, StepKind } from './kind.js';
import { FAULTABLE, scope, serverTarget, target } from './targets.js';

/** Freezes the node (or, scope process, SIGSTOPs the program alone); `resume` thaws it. */
export interface PauseStep extends StepBase {
  readonly kind: 'pause';
  readonly target: string;
  readonly scope: FaultScope;
}

const fields = { target, scope: scope.optional() };
/** `pause: c1` is short for `pause: { target: c1 }`. */
const schema = z.preprocess((v) => (typeof v === 'string' ? { target: v } : v), strict(fields));

export const pause: StepKind<PauseStep, typeof schema> = {
  kind: 'pause',
  schema,
  fields: Object.keys(fields),
  fault: true,
  build: (v, ctx) => ({ kind: 'pause', target: ctx.target(v.target, FAULTABLE, ['target']), scope: v.scope ?? 'node' }),
  describe: (step) => `pause ${step.target}${step.scope === 'node' ? '' : ' (its program alone)'}`,
  server: (step) => serverTarget(step.target),
  async run(ctx, step) {
    const r = await resolveTarget(ctx.lab.paths, step.target);
    remember(ctx.pausedAlias, step.target, r);
    const appliedAt = Date.now();
    const description = `pause ${shown(step.target, r)}${step.scope === 'node' ? '' : ' (its program alone)'}`;
    return { description, detail: await freeze(ctx, r, true, step.scope), appliedAt };
  },
};
