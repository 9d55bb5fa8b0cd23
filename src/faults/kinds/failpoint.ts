import { UsageError } from '../../errors.js';
import type { LabPaths } from '../../lab/paths.js';
import { requireState } from '../../lab/state.js';
import { FAILPOINT_ACTIONS, type FailpointAction, failpointsOf } from '../../recipes/failpoint-names.js';
import type { Target } from '../aim.js';
import type { Resolved } from '../targets.js';
import { type BackendHooks, type FaultKind, hooksFor } from './kind.js';
import { ownStep, stepTarget } from './step.js';

/**
 * A failpoint: a contender told to crash, freeze or hang at a named point of its recipe, once (etcd's gofail). Only
 * zklab's own recipes have them. `zklab failpoint set`, drill step `failpoint: { target, at, action }`.
 */

// What applies it is loaded when it runs: the CLI's help and the drill reader load the declaration alone.
const aim = () => import('../aim.js');

interface Arming {
  readonly contender: string;
  readonly at: string;
  readonly action: FailpointAction;
}

/** In the lab's failpoint records, which the contender reads at each point: the same on every backend. */
const inLab: BackendHooks<Arming> = {
  async apply(paths, { contender, at, action }) {
    (await import('../../lab/failpoints.js')).armFailpoint(paths, contender, { at, action });
  },
  async lift(paths, { contender }) {
    (await import('../../lab/failpoints.js')).clearFailpoint(paths, contender);
  },
};

/**
 * Arms a failpoint in a contender: at the named point of its recipe it crashes, freezes or hangs (once). Refused,
 * with nothing changed, for a server, a program of its own, or a point its recipe does not have.
 */
export async function armFailpoint(
  paths: LabPaths,
  t: Target,
  at: string,
  action: FailpointAction,
): Promise<{ target: Resolved }> {
  const { checkTargetName } = await import('../targets.js');
  if (typeof t === 'string') checkTargetName(requireState(paths), t);
  const target = await (await aim()).resolve(paths, t);
  if (target.kind !== 'contender')
    throw new UsageError(
      `${target.name} is a server; failpoints live in contenders`,
      'name a contender (cN) or leader',
    );
  const state = requireState(paths);
  const rec = state.contenders.find((c) => c.id === target.name);
  const { isOurs } = await import('../../lab/node/procs.js');
  if (!rec || !isOurs(rec.pid, paths.markers))
    throw new UsageError(
      `${target.name} is not running`,
      'arm a failpoint in a live contender: `zklab contenders list`',
    );
  const known = failpointsOf(rec.recipe, rec.scheduler ? 'scheduler' : undefined);
  if (known.length === 0)
    throw new UsageError(
      `${target.name} (${rec.recipe}) has no failpoints`,
      "failpoints exist in zklab's own recipes: predecessor, herd, and the scheduler workload",
    );
  if (!known.includes(at))
    throw new UsageError(`${target.name} has no failpoint "${at}"`, `its failpoints: ${known.join(', ')}`);
  await hooksFor<Arming>(failpoint, state).apply(paths, { contender: target.name, at, action });
  (await import('../../lab/event-log.js')).recordLabEvent(paths, 'failpoint-armed', {
    contender: target.name,
    at,
    action,
  });
  return { target };
}

const NO_FAILPOINTS =
  "these contenders have no failpoints (zklab's own recipes have them: predecessor, herd, and workload: scheduler)";

interface FailpointStep {
  readonly target: string;
  readonly at: string;
  readonly action: FailpointAction;
}

export const failpoint = {
  name: 'failpoint',
  description: 'Make a contender crash, freeze or hang at a named point of its recipe (once)',
  backends: { proxy: inLab, ns: inLab },
  steps: [
    ownStep({
      key: 'failpoint',
      summary:
        'Arm a failpoint in a contender (leader: the one leading then): crash, pause or hang once at a point of its recipe',
      examples: ['failpoint: { target: leader, at: before-assign, action: crash }'],
      // Arming changes nothing yet: newLeaderWithin measures from the fault before it.
      fault: false,
      fields: (z) => ({ target: stepTarget(z), at: z.string().min(1), action: z.enum(FAILPOINT_ACTIONS) }),
      build(v, ctx): FailpointStep {
        const known = ctx.failpoints;
        if (known && known.length === 0) {
          ctx.problem(NO_FAILPOINTS);
        } else if (known && !known.includes(v.at)) {
          ctx.problem(`"${v.at}" is not a failpoint of these contenders (use one of: ${known.join(', ')})`, ['at']);
        }
        return { target: ctx.target(v.target, ['target'], ['leader', 'contender']), at: v.at, action: v.action };
      },
      describe: (s) => `failpoint in ${s.target}: ${s.action} at ${s.at}`,
      names: (s) => [s.target],
      /** Arms the failpoint in the contender the target names when the step runs (`leader`: the one leading then). */
      async run(ctx, s) {
        const r = await (await aim()).resolve(ctx.paths, s.target);
        await armFailpoint(ctx.paths, r, s.at, s.action);
        // A contender that will freeze itself: `resume: leader` thaws the one this step meant.
        if (s.action === 'pause' && s.target === 'leader') ctx.remember('paused', s.target, r);
        return { description: `failpoint in ${ctx.shown(s.target, r)}: ${s.action} at ${s.at}` };
      },
    }),
  ],
} satisfies FaultKind;
