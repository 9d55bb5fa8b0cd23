import { allJobsDoneWithin } from './all-jobs-done-within.js';
import { everyoneAcquiresWithin } from './everyone-acquires-within.js';
import type { ExpectationContext, ExpectationKind, ExpectationVerdict } from './kind.js';
import { leaderIs } from './leader-is.js';
import { leaderIsNot } from './leader-is-not.js';
import { newLeaderWithin } from './new-leader-within.js';
import { noLeaderChange } from './no-leader-change.js';
import { notificationsPerDeath } from './notifications-per-death.js';
import { state } from './state.js';

/** Every kind an expect step may expect, in the order its messages list them. */
export const EXPECTATION_KINDS = [
  newLeaderWithin,
  noLeaderChange,
  leaderIs,
  leaderIsNot,
  notificationsPerDeath,
  state,
  allJobsDoneWithin,
  everyoneAcquiresWithin,
] as const;

type ExpectationOf<K> = K extends { describe(e: infer E): string } ? E : never;
/** What an expect step may expect: an expectation of a registered kind. */
export type Expectation = ExpectationOf<(typeof EXPECTATION_KINDS)[number]>;

const BY_KIND: ReadonlyMap<string, ExpectationKind> = new Map(
  EXPECTATION_KINDS.map((k): [string, ExpectationKind] => [k.kind, k]),
);

export function expectationKindOf(e: Expectation): ExpectationKind {
  const kind = BY_KIND.get(e.kind);
  if (kind === undefined) throw new Error(`no expectation kind ${e.kind}`);
  return kind;
}

export function describeExpectation(e: Expectation): string {
  return expectationKindOf(e).describe(e);
}

/** How long after its step the expectation may take to decide. */
export function boundOf(e: Expectation): number {
  return expectationKindOf(e).bound?.(e) ?? 0;
}

/** Judges one expectation against the history so far (`pending`: evaluate again later). */
export function evaluateExpectation(e: Expectation, ctx: ExpectationContext): ExpectationVerdict {
  return expectationKindOf(e).evaluate(e, ctx);
}
