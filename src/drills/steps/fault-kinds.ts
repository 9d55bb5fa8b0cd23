import { z } from 'zod';
import { type KindStep, ownSteps } from '../../faults/kinds/registry.js';
import type { OwnStep, StepBuild, StepRun } from '../../faults/kinds/step.js';
import { strict } from '../core/zod-helpers.js';
import { remember, shown } from '../core/aliases.js';
import type { BuildContext, StepBase, StepKind, StepRunContext } from './kind.js';
import { FAULTABLE, serverTarget } from './targets.js';

/** A step a fault kind declares (src/faults/kinds/): its key, and what its module built from the value. */
export type FaultKindStep = StepBase & KindStep;

/** What a fault kind's step may check while the drill is read. */
export const stepBuild = (ctx: BuildContext): StepBuild => ({
  target: (name, field, allowed = FAULTABLE) => ctx.target(name, allowed, field),
  problem: (message, field) => ctx.problem(message, field),
});

/** What a fault kind's step may use while the drill runs. */
export const stepRun = (ctx: StepRunContext): StepRun => ({
  paths: ctx.lab.paths,
  shown,
  partitioned: (name, r) => remember(ctx.partitionedAlias, name, r),
});

/** The drill's step kind for a fault kind's own step: strict fields, a fault newLeaderWithin measures from. */
function stepKindOf(spec: OwnStep): StepKind<FaultKindStep, z.ZodType> {
  const fields = spec.fields(z);
  const schema = strict(fields);
  return {
    kind: spec.key as FaultKindStep['kind'],
    schema,
    fields: Object.keys(fields),
    fault: true,
    build: (value, ctx) => {
      const built = spec.build(value as never, stepBuild(ctx));
      return built === null ? null : ({ ...(built as object), kind: spec.key } as Omit<FaultKindStep, 'line'>);
    },
    describe: (step) => spec.describe(step as never),
    server: (step) => spec.names(step as never).find((n) => serverTarget(n) !== undefined),
    run: (ctx, step) => spec.run(stepRun(ctx), step as never),
  };
}

/** The fault kinds' own steps (`<key>: { … }`), in the registry's order. */
export const FAULT_KIND_STEPS: readonly StepKind<FaultKindStep, z.ZodType>[] = ownSteps().map(stepKindOf);
