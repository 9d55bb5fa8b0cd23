import type { LabPaths } from '../../lab/paths.js';
import { requireNetwork } from '../../lab/state.js';
import { describeRule, healRules } from '../../net/partition.js';
import type { Target } from '../aim.js';
import { type BackendHooks, type FaultKind, hooksFor } from './kind.js';
import { FAULT_TARGETS_OR_ALL, stepTarget, valueStep } from './step.js';

/**
 * A heal: a member's isolation and every split that cuts it off lifted (whatever kind cut it: a one-way cut from or
 * to it too), or every partition. `zklab heal`, inspect's isolate key when the member is cut off, and the drill step
 * `heal: <target> | all`, which clears the target's delay and loss as well: a drill's heal restores its network whole.
 */

// What applies it is loaded when it runs: the CLI's help and the drill reader load the declaration alone.
const net = () => import('../../net/service.js');
const aim = () => import('../aim.js');

interface HealArgs {
  /** The member whose partitions are lifted; every partition when none. */
  readonly member: string | undefined;
  readonly members: readonly string[];
}

/** Through the lab's network plan: the rules that cut the member off leave it. */
const viaNetPlan: BackendHooks<HealArgs> = {
  async apply(paths, { member, members }) {
    await (await net()).changeNet(paths, (n) => ({ ...n, rules: healRules(n.rules, members, member) }));
  },
};

export interface HealResult {
  /** The rules that were lifted, described. */
  readonly healed: readonly string[];
  readonly remaining: readonly string[];
}

/** Lifts the target's isolation and the splits that cut it off; everything when no target (or `all`) is named. */
export async function applyHeal(paths: LabPaths, t?: Target): Promise<HealResult> {
  const target = t === undefined || t === 'all' ? undefined : (await (await aim()).resolve(paths, t)).name;
  const state = requireNetwork(paths);
  const member = target === undefined ? undefined : (await net()).requireMember(state, target);
  const { labMembers } = await import('../../net/lab-links.js');
  const members = labMembers(state);
  const before = state.net?.rules ?? [];
  const after = healRules(before, members, member);
  const healed = before.filter((r) => !after.includes(r)).map(describeRule);
  if (healed.length > 0) {
    await hooksFor<HealArgs>(heal, state).apply(paths, { member, members });
    (await import('../../lab/event-log.js')).recordLabEvent(paths, 'heal', {
      kind: 'partition',
      description: `heal ${member ?? 'all'}`,
      ...(member ? { target: member } : {}),
    });
  }
  return { healed, remaining: after.map(describeRule) };
}

export const heal = {
  name: 'heal',
  description:
    "Lift a member's isolation and the splits that cut it off (zkN, cN, leader (the leading contender) or zk-leader " +
    '(the leading server)), or all partitions',
  backends: { proxy: viaNetPlan, ns: viaNetPlan, hosts: viaNetPlan },
  steps: [
    valueStep({
      key: 'heal',
      summary:
        "Lift a member's partitions and clear its delay and loss (leader: the one the latest partition of leader " +
        'cut); all, or a bare heal, restores the whole network',
      examples: ['heal: leader', 'heal: c2', 'heal: all', 'heal'],
      bare: 'all',
      value: stepTarget,
      build: (name, ctx) => ({ target: ctx.target(name, [], FAULT_TARGETS_OR_ALL) }),
      describe: (s) => `heal ${s.target}`,
      names: (s) => [s.target],
      // `leader` is the contender the latest partition of `leader` hit.
      async run(ctx, s) {
        // A drill's heal restores the target's network whole: partitions lifted, delays cleared.
        const r = s.target === 'all' ? undefined : ctx.recall('partitioned', s.target, 'heal');
        const appliedAt = Date.now();
        const { healed } = await applyHeal(ctx.paths, r ?? 'all');
        const { cleared } = await (await import('./delay.js')).clearDelay(ctx.paths, r ?? 'all');
        const lifted = [...healed, ...cleared];
        return {
          description: r ? `heal ${ctx.shown(s.target, r)}` : 'heal all',
          detail: lifted.length === 0 ? 'nothing to heal' : `lifted ${lifted.join('; ')}`,
          appliedAt,
        };
      },
    }),
  ],
} satisfies FaultKind;
