import { type CutMode, type IsolateRule, isDirected } from '../../lab/net-plan.js';
import type { LabPaths } from '../../lab/paths.js';
import { requireNetwork } from '../../lab/state.js';
import { describeRule, isolate as isolateRule } from '../../net/partition.js';
import type { Target } from '../aim.js';
import type { Resolved } from '../targets.js';
import { type BackendHooks, type FaultKind, hooksFor } from './kind.js';
import { PARTITION_WINDOW } from './partition-line.js';
import { modeStep, stepTarget } from './step.js';

/**
 * An isolation: every link of one member cut (blackhole: silence, sockets stay open; reject: connections reset),
 * replacing an earlier isolation of it. `zklab partition isolate`, drill step `partition: { isolate: <target> }`,
 * inspect's isolate key; a heal lifts it (heal.ts).
 */

// What applies it is loaded when it runs: the CLI's help and the drill reader load the declaration alone.
const net = () => import('../../net/service.js');
const aim = () => import('../aim.js');

/** Through the lab's network plan: the link daemon, or each node's kernel, cuts what the plan says. */
const viaNetPlan: BackendHooks<IsolateRule> = {
  async apply(paths, rule) {
    await (await net()).changeNet(paths, (n) => ({
      ...n,
      rules: [...n.rules.filter((r) => !(!isDirected(r) && r.type === 'isolate' && r.member === rule.member)), rule],
    }));
  },
};

export interface IsolateResult {
  readonly member: string;
  readonly description: string;
  readonly target: Resolved;
}

/** Cuts every link of the target (an alias resolved now, and recorded as `requested`). */
export async function applyIsolate(paths: LabPaths, t: Target, mode: CutMode = 'blackhole'): Promise<IsolateResult> {
  const { refuseDeadContender, resolve } = await aim();
  const target = await resolve(paths, t);
  refuseDeadContender(paths, target, 'a partition');
  const requested = typeof t === 'string' && t !== target.name ? t : undefined;
  const state = requireNetwork(paths);
  const member = (await net()).requireMember(state, target.name);
  const rule = isolateRule(member, mode);
  await hooksFor<IsolateRule>(isolate, state).apply(paths, rule);
  const description = describeRule(rule);
  (await import('../../lab/event-log.js')).recordLabEvent(paths, 'partition', {
    description,
    target: member,
    mode,
    ...(requested === undefined ? {} : { requested }),
  });
  return { member, description, target };
}

export const isolate = {
  name: 'isolate',
  description:
    'Cut every link of one member: zkN, cN, leader (the leading contender) or zk-leader (the leading server)',
  backends: { proxy: viaNetPlan, ns: viaNetPlan, hosts: viaNetPlan },
  windows: [PARTITION_WINDOW],
  steps: [
    modeStep({
      key: 'partition',
      mode: 'isolate',
      summary: 'every link of one member',
      value: stepTarget,
      example: 'isolate: leader',
      build: (name, ctx) => ({ target: ctx.target(name, []) }),
      describe: (s) => `partition: isolate ${s.target}`,
      names: (s) => [s.target],
      async run(ctx, s) {
        const r = await (await aim()).resolve(ctx.paths, s.target);
        ctx.remember('partitioned', s.target, r);
        const appliedAt = Date.now();
        await applyIsolate(ctx.paths, r);
        return { description: `partition: isolate ${ctx.shown(s.target, r)}`, appliedAt };
      },
    }),
  ],
} satisfies FaultKind;
