import { UsageError } from '../../errors.js';
import type { CutMode, SplitRule } from '../../lab/net-plan.js';
import type { LabPaths } from '../../lab/paths.js';
import { requireNetwork, requireState } from '../../lab/state.js';
import { describeRule, split as splitRule, splitGroups, validateRule } from '../../net/partition.js';
import { type BackendHooks, type FaultKind, hooksFor } from './kind.js';
import { PARTITION_WINDOW } from './partition-line.js';
import { modeStep, stepTarget } from './step.js';

/**
 * A split: the links between groups of members cut; members not named form one more group. `zklab partition
 * split`, drill step `partition: { split: [[…], […]] }`; a heal of any member it cut off lifts it whole (heal.ts).
 */

// What applies it is loaded when it runs: the CLI's help and the drill reader load the declaration alone.
const net = () => import('../../net/service.js');

/** Through the lab's network plan: the link daemon, or each node's kernel, cuts what the plan says. */
const viaNetPlan: BackendHooks<SplitRule> = {
  async apply(paths, rule) {
    await (await net()).changeNet(paths, (n) => ({ ...n, rules: [...n.rules, rule] }));
  },
};

export interface SplitResult {
  /** Every group, the implicit one (members not named) last. */
  readonly groups: readonly (readonly string[])[];
  readonly description: string;
}

/** Cuts the links between the groups; aliases are resolved when the split runs. */
export async function applySplit(
  paths: LabPaths,
  named: readonly (readonly string[])[],
  mode: CutMode = 'blackhole',
): Promise<SplitResult> {
  const { checkTargetName, resolveTarget } = await import('../targets.js');
  const before = requireState(paths);
  for (const name of named.flat()) checkTargetName(before, name);
  const groups: string[][] = [];
  for (const group of named)
    groups.push(await Promise.all(group.map(async (name) => (await resolveTarget(paths, name, before)).name)));
  const state = requireNetwork(paths);
  if (groups.length < 2) {
    throw new UsageError(
      `a split needs at least two groups, got ${groups.length}`,
      'e.g. `zklab partition split zk1 zk2,zk3` (members not named form one more group)',
    );
  }
  const { requireMember } = await net();
  for (const name of groups.flat()) requireMember(state, name);
  const { labMembers } = await import('../../net/lab-links.js');
  const rule = splitRule(groups, mode);
  const problems = validateRule(rule, labMembers(state));
  if (problems.length > 0)
    throw new UsageError(problems.join('; '), 'keep each member in one group; members not named form one more group');
  await hooksFor<SplitRule>(split, state).apply(paths, rule);
  // The group of those not named holds the living: a dead contender is cut off from nothing.
  const { isOurs } = await import('../../lab/node/procs.js');
  const living = labMembers(state).filter(
    (m) => !state.contenders.some((c) => c.id === m && !isOurs(c.pid, paths.markers)),
  );
  const all = splitGroups(rule, living).filter((g) => g.length > 0);
  const description = describeRule(splitRule(all, mode));
  (await import('../../lab/event-log.js')).recordLabEvent(paths, 'partition', { description, groups: all, mode });
  return { groups: all, description };
}

const describeStep = (s: { groups: readonly (readonly string[])[] }) =>
  `partition: split ${s.groups.map((g) => `[${g.join(' ')}]`).join(' | ')}`;

export const split = {
  name: 'split',
  description:
    'Cut the links between groups of comma-separated members (zk1 zk2,zk3,c1); members not named form one more group',
  backends: { proxy: viaNetPlan, ns: viaNetPlan, hosts: viaNetPlan },
  windows: [PARTITION_WINDOW],
  steps: [
    modeStep({
      key: 'partition',
      mode: 'split',
      summary: 'the links between groups (members not named form one more group)',
      value: (z) => z.array(z.array(stepTarget(z)).min(1)).min(2),
      example: 'split: [[zk1], [zk2, zk3]]',
      build: (groups, ctx) => {
        const seen = new Set<string>();
        groups.forEach((group, g) => {
          group.forEach((name, n) => {
            ctx.target(name, [g, n]);
            if (seen.has(name)) ctx.problem(`${name} is in two groups (keep each name in one group)`, [g, n]);
            seen.add(name);
          });
        });
        return { groups };
      },
      describe: describeStep,
      names: (s) => s.groups.flat(),
      async run(ctx, s) {
        const { resolve } = await import('../aim.js');
        const groups: string[][] = [];
        for (const group of s.groups) {
          const names: string[] = [];
          for (const t of group) {
            const r = await resolve(ctx.paths, t);
            ctx.remember('partitioned', t, r);
            names.push(r.name);
          }
          groups.push(names);
        }
        const appliedAt = Date.now();
        const { description } = await applySplit(ctx.paths, groups);
        return { description: `partition: ${description}`, appliedAt };
      },
    }),
  ],
} satisfies FaultKind;
