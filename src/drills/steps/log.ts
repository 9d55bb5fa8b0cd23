import { z } from 'zod';
import type { StepBase, StepKind } from './kind.js';

/** A line of the drill's own in its report, between the steps; it does nothing to the lab. */
export interface LogStep extends StepBase {
  readonly kind: 'log';
  readonly text: string;
}

const schema = z.string().min(1);

export const log: StepKind<LogStep, typeof schema> = {
  kind: 'log',
  summary: "Put a line of the drill's own in its report, between the steps; it does nothing to the lab",
  examples: ['log: "c1 leads; now kill it"'],
  schema,
  build: (text) => ({ kind: 'log', text }),
  describe: (step) => step.text,
  run: async () => ({}),
};
