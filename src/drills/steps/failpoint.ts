import { z } from 'zod';
import * as faults from '../../faults/service.js';
import { resolveTarget } from '../../faults/targets.js';
import { FAILPOINT_ACTIONS, type FailpointAction } from '../../recipes/failpoint-names.js';
import { strict } from '../core/zod-helpers.js';
import { shown } from '../core/aliases.js';
import type { StepBase, StepKind } from './kind.js';
import { target } from './targets.js';

/** Arms a failpoint, once, at a point of the contender's recipe. */
export interface FailpointStep extends StepBase {
  readonly kind: 'failpoint';
  readonly target: string;
  readonly at: string;
  readonly action: FailpointAction;
}

const fields = { target, at: z.string().min(1), action: z.enum(FAILPOINT_ACTIONS) };
const schema = strict(fields);

const NO_FAILPOINTS =
  "these contenders have no failpoints (zklab's own recipes have them: predecessor, herd, and workload: scheduler)";

export const failpoint: StepKind<FailpointStep, typeof schema> = {
  kind: 'failpoint',
  schema,
  fields: Object.keys(fields),
  build(v, ctx) {
    const known = ctx.contenders?.failpoints;
    if (known && known.length === 0) {
      ctx.problem(NO_FAILPOINTS);
    } else if (known && !known.includes(v.at)) {
      ctx.problem(`"${v.at}" is not a failpoint of these contenders (use one of: ${known.join(', ')})`, ['at']);
    }
    return {
      kind: 'failpoint',
      target: ctx.target(v.target, ['leader', 'contender'], ['target']),
      at: v.at,
      action: v.action,
    };
  },
  describe: (step) => `failpoint in ${step.target}: ${step.action} at ${step.at}`,
  /** Arms the failpoint in the contender the target names when the step runs (`leader`: the one leading then). */
  async run(ctx, step) {
    const r = await resolveTarget(ctx.lab.paths, step.target);
    await faults.armFailpoint(ctx.lab.paths, r, step.at, step.action);
    // A contender that will freeze itself: `resume: leader` thaws the one this step meant.
    if (step.action === 'pause' && step.target === 'leader') ctx.pausedAlias.set('leader', r.name);
    return { description: `failpoint in ${shown(step.target, r)}: ${step.action} at ${step.at}` };
  },
};
