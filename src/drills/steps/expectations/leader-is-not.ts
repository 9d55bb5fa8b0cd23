import type { Target } from '../../core/types.js';
import { target } from '../targets.js';
import type { ExpectationKind } from './kind.js';
import { judgeLeader } from './leader-is.js';

/** The contender does not lead when the step runs. */
export interface LeaderIsNot {
  readonly kind: 'leaderIsNot';
  readonly contender: Target;
}

export const leaderIsNot: ExpectationKind<LeaderIsNot, typeof target> = {
  kind: 'leaderIsNot',
  example: 'leaderIsNot: c1',
  schema: target,
  build: (name, ctx) => [{ kind: 'leaderIsNot', contender: ctx.target(name, ['contender'], ['leaderIsNot']) }],
  describe: (e) => `${e.contender} does not lead`,
  evaluate: (e, ctx) => judgeLeader(e.contender, false, ctx),
};
