import { formatDuration } from '../../duration.js';
import { restartServers } from '../../ensemble/service.js';
import { zkLeader } from '../../faults/leader.js';
import type { TargetKind } from '../../faults/targets.js';
import type { StepBase, StepKind } from './kind.js';
import { target } from './targets.js';

/** Kills servers and starts them again; its detail says how long the server was unavailable. */
export interface RestartStep extends StepBase {
  readonly kind: 'restart';
  readonly target: string;
}

/** A contender cannot be restarted under its id (ids only count up): spawn a new one instead. */
const RESTARTABLE: readonly TargetKind[] = ['zk-leader', 'server', 'all'];

export const restart: StepKind<RestartStep, typeof target> = {
  kind: 'restart',
  schema: target,
  fault: true,
  build: (name, ctx) => ({ kind: 'restart', target: ctx.target(name, RESTARTABLE) }),
  describe: (step) => `restart ${step.target}`,
  server: (step) => step.target,
  async run(ctx, step) {
    const name = step.target === 'zk-leader' ? (await zkLeader(ctx.lab.paths)).name : step.target;
    for (const frozen of [...ctx.frozen])
      if (frozen === name || (name === 'all' && frozen.startsWith('zk'))) ctx.frozen.delete(frozen);
    const appliedAt = Date.now();
    const { unavailableMs } = await restartServers(ctx.lab.paths, name, { signal: ctx.signal, zkHome: ctx.zkHome });
    return {
      description: `restart ${step.target === name ? name : `${step.target} → ${name}`}`,
      detail: `${name} unavailable ${formatDuration(unavailableMs)} (SIGKILL → serving again)`,
      appliedAt,
    };
  },
};
