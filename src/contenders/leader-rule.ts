import type { ContenderRecord } from '../lab/state.js';
import { AUTO_RULE, parseLeaderRule, type LeaderRule } from '../recipes/leadership.js';

/** How ZooKeeper's view tells who leads `path`: the rule its contenders were spawned with (programs name one). */
export function ruleOf(contenders: readonly ContenderRecord[], path: string): LeaderRule {
  const named = contenders.find((c) => c.path === path && c.leaderRule !== undefined)?.leaderRule;
  return (named !== undefined && parseLeaderRule(named)) || AUTO_RULE;
}

/** The rule that says who leads among a contender's znodes, in the words of --leader-rule where there are some. */
export function effectiveRule(recipe: string, leaderRule: string | undefined): string {
  if (leaderRule !== undefined) return leaderRule;
  if (recipe === 'predecessor' || recipe === 'herd') return 'lowest-sequence';
  return recipe === 'single-file' ? 'single-node leader' : recipe;
}
