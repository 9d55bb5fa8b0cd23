import { z } from 'zod';
import type { StepBase, StepKind } from './kind.js';

/** Adds contenders c<count+1>...; it returns once they have joined, so later steps may name them. */
export interface SpawnStep extends StepBase {
  readonly kind: 'spawn';
  readonly count: number;
}

const schema = z.number().int().min(1).max(100);

const describe = (step: SpawnStep) => `spawn ${step.count} contender(s)`;

export const spawn: StepKind<SpawnStep, typeof schema> = {
  kind: 'spawn',
  summary:
    'Add contenders, numbered on (c6, c7 after c5); it returns once they have joined, so later steps may name them',
  examples: ['spawn: 2'],
  schema,
  fault: true,
  build: (count) => ({ kind: 'spawn', count }),
  after: (step, scope) => ({ ...scope, contenders: scope.contenders + step.count }),
  describe,
  async run(ctx, step) {
    const ids = await ctx.lab.spawn(ctx.drill.contenders, step.count, ctx.signal);
    return { description: `${describe(step)}: ${ids.join(', ')}` };
  },
};
