import type { LabEventOf } from '../../lab/events.js';
import type { LabPaths } from '../../lab/paths.js';
import { requireState } from '../../lab/state.js';
import type { Target } from '../aim.js';
import type { Resolved } from '../targets.js';
import { type BackendHooks, type FaultKind, hooksFor, windowRule } from './kind.js';
import { stepTarget, valueStep } from './step.js';

/**
 * A clean stop (SIGTERM): a contender closes its session at once and its node goes with it, as `zklab contenders
 * stop` does; a server is stopped as a kill with SIGTERM stops it. Drill step `stop: <target>`.
 */

// What applies it is loaded when it runs: the drill reader loads the declaration alone.
const aim = () => import('../aim.js');

/** The member's processes, whatever the network: the same on every backend. */
const onNode: BackendHooks<Resolved> = {
  async apply(paths, target) {
    if (target.kind === 'contender')
      await (await import('../../contenders/service.js')).stopContenders(paths, [target.name]);
    else await (await import('./kill.js')).applyKill(paths, target, 'SIGTERM');
  },
};

/** Stops the target (resolved now when it is a name) cleanly; says whom it stopped. */
export async function applyStop(paths: LabPaths, t: Target): Promise<Resolved> {
  const target = await (await aim()).resolve(paths, t);
  await hooksFor<Resolved>(stop, requireState(paths)).apply(paths, target);
  return target;
}

export const stop = {
  name: 'stop',
  description: 'Stop a contender cleanly (SIGTERM: it closes its session at once) or a server',
  backends: { proxy: onNode, ns: onNode },
  windows: [
    windowRule<LabEventOf<'contender-stopped'>>({
      event: 'contender-stopped',
      colour: '#7f7f7f',
      label: (e) => `stop ${e.contender}`,
      start: (e) => e.signalledAt ?? e.t,
      hits: (e) => [e.contender],
    }),
  ],
  steps: [
    valueStep({
      key: 'stop',
      summary: 'Stop a member cleanly (SIGTERM): a contender closes its session at once, and its node goes with it',
      examples: ['stop: c2', 'stop: zk3'],
      value: stepTarget,
      build: (name, ctx) => ({ target: ctx.target(name, []) }),
      describe: (s) => `stop ${s.target}`,
      names: (s) => [s.target],
      async run(ctx, s) {
        const r = await (await aim()).resolve(ctx.paths, s.target);
        ctx.frozen.delete(r.name);
        const appliedAt = Date.now();
        await applyStop(ctx.paths, r);
        return { description: `stop ${ctx.shown(s.target, r)}`, appliedAt };
      },
    }),
  ],
} satisfies FaultKind;
