import { z } from 'zod';
import { CHECKERS, type CheckConfig, type CheckName, checkerNamed, DEFAULT_CHECKS } from '../judge/checkers.js';
import type { ContenderTraits } from '../core/contender-traits.js';
import { type RawIssue, strict } from '../core/zod-helpers.js';

/** One item of a drill's checks list, each checker's options checked by its own schema. */
export const checkEntry = z.preprocess(
  // `herdSize` is short for `{ herdSize: {} }`.
  (v) => (typeof v === 'string' ? { [v]: {} } : v),
  strict(
    Object.fromEntries(
      CHECKERS.map((c): [string, z.ZodOptional<z.ZodType>] => [c.name, c.options.optional()]),
    ) as Record<CheckName, z.ZodOptional<z.ZodType>>,
  ),
);

/**
 * What a drill's checks list asks for: the checks with their options (the default checks when there is no list)
 * and the names in the order written. A check the contenders give nothing to judge (`contenders`: null when that
 * section is itself invalid) and options that contradict each other are problems.
 */
export function readChecks(
  entries: readonly z.output<typeof checkEntry>[] | undefined,
  contenders: ContenderTraits | null,
  issues: RawIssue[],
): { checks: CheckConfig; names: CheckName[] } {
  if (entries === undefined) {
    return { checks: Object.fromEntries(DEFAULT_CHECKS.map((n) => [n, {}])), names: [...DEFAULT_CHECKS] };
  }
  const checks: Record<string, unknown> = {};
  entries.forEach((entry, i) => {
    for (const [name, options] of Object.entries(entry)) {
      if (options === undefined) continue;
      checks[name] = options;
      const unmet = contenders ? checkerNamed(name)?.needs?.(contenders) : undefined;
      if (unmet !== undefined) issues.push({ path: ['checks', i, name], message: unmet });
    }
  });
  for (const [name, options] of Object.entries(checks)) {
    const problem = checkerNamed(name)?.refuse?.(options);
    if (problem === undefined) continue;
    // A check named twice is judged with its last options; the problem points at its first mention.
    const i = entries.findIndex((e) => e[name as CheckName] !== undefined);
    issues.push({ path: ['checks', i, name, problem.field], message: problem.message });
  }
  return { checks: checks as CheckConfig, names: Object.keys(checks) as CheckName[] };
}
