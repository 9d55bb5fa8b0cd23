import { UsageError } from '../../errors.js';
import { type CutMode, type DirectedRule, isDirected } from '../../lab/net-plan.js';
import type { LabPaths } from '../../lab/paths.js';
import { requireNetwork } from '../../lab/state.js';
import { describeRule, directed } from '../../net/partition.js';
import type { Target } from '../aim.js';
import type { Resolved } from '../targets.js';
import { type BackendHooks, type FaultKind, hooksFor } from './kind.js';
import { PARTITION_WINDOW } from './partition-line.js';
import { modeStep, stepTarget } from './step.js';

/**
 * The one-way cut: one member's packets to another dropped (or refused) while the other way they flow. Only a
 * kernel cuts one direction of a connection (the node network: a rule in the receiver's namespace); link proxies
 * carry whole connections. `zklab partition one-way`, drill step `partition: { oneWay: [from, to] }`. It is a
 * partition as the log and the judges see it (a `partition` line naming `from`; `heal` of either end lifts it).
 */

const NAME = 'one-way';

// What applies it is loaded when it runs: the CLI's help and the drill reader load the declaration alone.
const net = () => import('../../net/service.js');
const aim = () => import('../aim.js');

/** Through the lab's network plan: the receiver's kernel drops what the plan says. */
const viaNetPlan: BackendHooks<DirectedRule> = {
  async apply(paths, rule) {
    const same = (r: DirectedRule) => r.type === rule.type && r.from === rule.from && r.to === rule.to;
    await (await net()).changeNet(paths, (n) => ({
      ...n,
      rules: [...n.rules.filter((r) => !(isDirected(r) && same(r))), rule],
    }));
  },
  async lift(paths, rule) {
    const same = (r: DirectedRule) => r.type === rule.type && r.from === rule.from && r.to === rule.to;
    await (await net()).changeNet(paths, (n) => ({ ...n, rules: n.rules.filter((r) => !(isDirected(r) && same(r))) }));
  },
};

export interface OneWayResult {
  readonly member: string;
  readonly description: string;
}

/** Cuts `from`'s packets to `to` while `to`'s reach `from` (the node network only); aliases resolved now. */
export async function applyOneWay(
  paths: LabPaths,
  from: Target,
  to: Target,
  mode: CutMode = 'blackhole',
): Promise<OneWayResult> {
  const { refuseDeadContender, resolve } = await aim();
  const a = await resolve(paths, from);
  const b = await resolve(paths, to);
  if (a.name === b.name) {
    const named = (t: Target, r: Resolved) => (typeof t === 'string' ? t : r.name);
    throw new UsageError(
      `a one-way cut needs two members; ${named(from, a)} and ${named(to, b)} are both ${a.name}`,
      'name two members, e.g. `zklab partition one-way c1 zk2`',
    );
  }
  refuseDeadContender(paths, a, 'a one-way cut');
  const { requireMember } = await net();
  const state = requireNetwork(paths);
  requireMember(state, a.name);
  requireMember(state, b.name);
  const rule = directed(NAME, a.name, b.name, mode);
  await hooksFor<DirectedRule>(oneWay, state).apply(paths, rule);
  const description = describeRule(rule);
  const { recordLabEvent } = await import('../../lab/event-log.js');
  recordLabEvent(paths, 'partition', { description, target: a.name, peer: b.name, mode });
  return { member: a.name, description };
}

const describeStep = (s: { from: string; to: string }) => `partition: one-way ${s.from} → ${s.to}`;

export const oneWay = {
  name: NAME,
  description: "Drop <from>'s packets to <to>; <to>'s still reach <from> (a lab on its node network: --net ns)",
  needs: 'a one-way cut',
  backends: { ns: viaNetPlan, hosts: viaNetPlan },
  windows: [PARTITION_WINDOW],
  steps: [
    modeStep({
      key: 'partition',
      mode: 'oneWay',
      summary: "one member's packets to another, while the other way flows (net: ns)",
      value: (z) => z.tuple([stepTarget(z), stepTarget(z)]),
      example: 'oneWay: [c1, c2]',
      build: ([from, to], ctx) => {
        if (from === to) ctx.problem(`names ${from} twice (a one-way cut needs two members)`);
        return { from: ctx.target(from, [0]), to: ctx.target(to, [1]) };
      },
      describe: describeStep,
      names: (s) => [s.from, s.to],
      async run(ctx, s) {
        const { resolve } = await aim();
        const [from, to] = [await resolve(ctx.paths, s.from), await resolve(ctx.paths, s.to)];
        ctx.remember('partitioned', s.from, from);
        const appliedAt = Date.now();
        await applyOneWay(ctx.paths, from, to);
        return { description: describeStep({ from: ctx.shown(s.from, from), to: ctx.shown(s.to, to) }), appliedAt };
      },
    }),
  ],
} satisfies FaultKind;
