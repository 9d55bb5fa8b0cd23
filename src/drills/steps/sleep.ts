import { setTimeout as sleepFor } from 'node:timers/promises';
import { formatDuration } from '../../duration.js';
import { duration } from '../core/zod-helpers.js';
import type { StepBase, StepKind } from './kind.js';

export interface SleepStep extends StepBase {
  readonly kind: 'sleep';
  readonly ms: number;
}

const schema = duration();

export const sleep: StepKind<SleepStep, typeof schema> = {
  kind: 'sleep',
  summary: 'Let time pass',
  examples: ['sleep: 2s'],
  schema,
  build: (ms) => ({ kind: 'sleep', ms }),
  describe: (step) => `sleep ${formatDuration(step.ms)}`,
  async run(ctx, step) {
    await sleepFor(step.ms, undefined, { signal: ctx.signal });
    return {};
  },
};
