import { z } from 'zod';
import { describeStepTimes, ensembleAdd } from '../../ensemble/membership.js';
import type { StepBase, StepKind } from './kind.js';

/** Starts a new server and joins it by dynamic reconfiguration (`zklab ensemble add`). */
export interface AddStep extends StepBase {
  readonly kind: 'add';
  readonly role: 'participant' | 'observer';
}

const schema = z.enum(['participant', 'observer']);

export const add: StepKind<AddStep, typeof schema> = {
  kind: 'add',
  summary: 'Start a server and join it by reconfig, as a voter or an observer; it takes the lowest free id',
  examples: ['add: participant', 'add: observer'],
  schema,
  fault: true,
  build: (role) => ({ kind: 'add', role }),
  // The new server takes the lowest free id; counting up keeps zkN of every added server a valid target.
  after: (_step, scope) => ({ ...scope, servers: scope.servers + 1 }),
  describe: (step) => `add a server (${step.role}) by reconfig`,
  async run(ctx, step) {
    const appliedAt = Date.now();
    const r = await ensembleAdd(ctx.lab.paths, { observer: step.role === 'observer', signal: ctx.signal });
    return {
      description: `add ${r.server} (${r.role}) by reconfig`,
      detail: `configuration ${r.config.version}: ${describeStepTimes(r.steps)}`,
      appliedAt,
    };
  },
};
