import { z } from 'zod';
import { DRILL_CONTENDER_STATES, type DrillContenderState, type Target } from '../../core/types.js';
import { stateAt } from '../../judge/queries.js';
import type { ExpectationKind } from './kind.js';

/** The contender is in that state when the step runs; `state: { c1: follower, c2: dead }` is one per contender. */
export interface StateIs {
  readonly kind: 'state';
  readonly contender: Target;
  readonly state: DrillContenderState;
}

const schema = z.record(z.string(), z.enum(DRILL_CONTENDER_STATES));

export const state: ExpectationKind<StateIs, typeof schema> = {
  kind: 'state',
  example: 'state: { c1: follower, c2: dead }',
  schema,
  build(v, ctx) {
    const states = Object.entries(v);
    if (states.length === 0) ctx.problem('names no contender (write state: { c1: follower })', ['state']);
    return states.map(([contender, state]) => ({
      kind: 'state',
      contender: ctx.target(contender, ['contender'], ['state', contender]),
      state,
    }));
  },
  describe: (e) => `${e.contender} is ${e.state}`,
  evaluate(e, ctx) {
    const now = stateAt(ctx.history, e.contender, ctx.now);
    return { status: now === e.state ? 'passed' : 'failed', detail: `${e.contender} is ${now ?? 'not started'}` };
  },
};
