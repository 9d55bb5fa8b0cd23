import type { Target } from '../../core/types.js';
import { leaderAt } from '../../judge/queries.js';
import { target } from '../targets.js';
import type { ExpectationContext, ExpectationKind, ExpectationVerdict } from './kind.js';

/** The contender leads when the step runs. */
export interface LeaderIs {
  readonly kind: 'leaderIs';
  readonly contender: Target;
}

/** Whether who leads now is `contender` (`wanted`) or is not, in the words of leaderIs and leaderIsNot. */
export function judgeLeader(contender: Target, wanted: boolean, ctx: ExpectationContext): ExpectationVerdict {
  const leader = leaderAt(ctx.history, ctx.now)?.contender ?? null;
  return { status: (leader === contender) === wanted ? 'passed' : 'failed', detail: `${leader ?? 'nobody'} leads` };
}

export const leaderIs: ExpectationKind<LeaderIs, typeof target> = {
  kind: 'leaderIs',
  example: 'leaderIs: c2',
  schema: target,
  build: (name, ctx) => [{ kind: 'leaderIs', contender: ctx.target(name, ['contender'], ['leaderIs']) }],
  describe: (e) => `${e.contender} leads`,
  evaluate: (e, ctx) => judgeLeader(e.contender, true, ctx),
};
