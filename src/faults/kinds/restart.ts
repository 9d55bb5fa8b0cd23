import { formatDuration } from '../../duration.js';
import type { EnsembleStatus, RestartServersOptions } from '../../ensemble/service.js';
import type { LabPaths } from '../../lab/paths.js';
import { requireState } from '../../lab/state.js';
import type { TargetKind } from '../targets.js';
import { type BackendHooks, type FaultKind, hooksFor } from './kind.js';
import { stepTarget, valueStep } from './step.js';

/**
 * A server restart: one server (or all) killed with SIGKILL and started again, keeping its data; it says how long
 * the server was unavailable. `zklab ensemble restart`, drill step `restart: zkN | zk-leader | all`.
 */

export type RestartOptions = RestartServersOptions;

interface RestartArgs {
  /** zkN, or all. */
  readonly target: string;
  readonly opts: RestartOptions;
}

/** The ensemble's own lifecycle, whatever the network: the same on every backend. */
const onNode: BackendHooks<RestartArgs, EnsembleStatus & { unavailableMs: number }> = {
  async apply(paths, { target, opts }) {
    return (await import('../../ensemble/service.js')).restartServers(paths, target, opts);
  },
};

/** Restarts a server (zkN) or all of them; the ensemble's status after, and how long it was unavailable. */
export async function applyRestart(
  paths: LabPaths,
  target: string,
  opts: RestartOptions = {},
): Promise<EnsembleStatus & { unavailableMs: number }> {
  const hooks = hooksFor<RestartArgs, EnsembleStatus & { unavailableMs: number }>(restart, requireState(paths));
  return hooks.apply(paths, { target, opts });
}

/** A contender cannot be restarted under its id (ids only count up): spawn a new one instead. */
const RESTARTABLE: readonly TargetKind[] = ['zk-leader', 'server', 'all'];

export const restart = {
  name: 'restart',
  description: 'Restart one server (zkN) or all of them, keeping their data',
  backends: { proxy: onNode, ns: onNode, hosts: onNode },
  steps: [
    valueStep({
      key: 'restart',
      summary: 'Restart a server, or all of them, keeping their data; it says how long the server was unavailable',
      examples: ['restart: zk1', 'restart: zk-leader', 'restart: all'],
      value: stepTarget,
      build: (name, ctx) => ({ target: ctx.target(name, [], RESTARTABLE) }),
      describe: (s) => `restart ${s.target}`,
      names: (s) => [s.target],
      // Servers, whatever it names (`all` too): a drill run with --connect refuses it.
      server: (s) => s.target,
      async run(ctx, s) {
        const { zkLeader } = await import('../leader.js');
        const name = s.target === 'zk-leader' ? (await zkLeader(ctx.paths)).name : s.target;
        for (const frozen of [...ctx.frozen])
          if (frozen === name || (name === 'all' && frozen.startsWith('zk'))) ctx.frozen.delete(frozen);
        const appliedAt = Date.now();
        const { unavailableMs } = await applyRestart(ctx.paths, name, {
          signal: ctx.signal,
          zkHome: ctx.zkHome,
          restartAll: '`restart: all`',
        });
        return {
          description: `restart ${s.target === name ? name : `${s.target} → ${name}`}`,
          detail: `${name} unavailable ${formatDuration(unavailableMs)} (SIGKILL → serving again)`,
          appliedAt,
        };
      },
    }),
  ],
} satisfies FaultKind;
