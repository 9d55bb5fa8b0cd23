import { formatDuration } from '../../duration.js';
import type { LabEventOf } from '../../lab/events.js';
import type { MemberDelay } from '../../lab/net-plan.js';
import type { LabPaths } from '../../lab/paths.js';
import { requireNetwork } from '../../lab/state.js';
import { clearDelays, delay as memberDelay, setDelay } from '../../net/partition.js';
import type { Target } from '../aim.js';
import type { Resolved } from '../targets.js';
import { type BackendHooks, type FaultKind, hooksFor, windowRule } from './kind.js';
import { ownStep, stepDuration, stepTarget } from './step.js';

/**
 * A delay: round-trip latency (plus up to a jitter) on every link of one member; 0 removes it. The link proxies
 * hold each chunk back, the node network's kernel delays packets (netem). `zklab net delay`, drill step
 * `delay: { target, ms, jitter }`. `zklab net clear` (clearDelay) removes it with the member's packet loss, as a
 * drill's heal does.
 */

// What applies it is loaded when it runs: the CLI's help and the drill reader load the declaration alone.
const net = () => import('../../net/service.js');
const aim = () => import('../aim.js');

/** Through the lab's network plan: the link daemon, or each node's kernel, delays what the plan says. */
const viaNetPlan: BackendHooks<MemberDelay> = {
  async apply(paths, d) {
    await (await net()).changeNet(paths, (n) => ({ ...n, delays: setDelay(n.delays, d) }));
  },
};

export interface DelayResult {
  readonly member: string;
  readonly description: string;
  readonly target: Resolved;
}

/** Adds `ms` (plus up to `jitterMs`) of round-trip latency to every link of the target; 0 removes it. */
export async function applyDelay(paths: LabPaths, t: Target, ms: number, jitterMs = 0): Promise<DelayResult> {
  const { checkMs, requireMember } = await net();
  checkMs('the delay', ms);
  checkMs('the jitter', jitterMs);
  const { refuseDeadContender, resolve } = await aim();
  const target = await resolve(paths, t);
  if (ms > 0) refuseDeadContender(paths, target, 'a delay');
  const state = requireNetwork(paths);
  const member = requireMember(state, target.name);
  const d = memberDelay(member, ms, jitterMs);
  await hooksFor<MemberDelay>(delay, state).apply(paths, d);
  const description = (await import('../../net/status.js')).describeDelay(d);
  (await import('../../lab/event-log.js')).recordLabEvent(paths, 'delay', {
    description,
    target: member,
    ms,
    jitter: jitterMs,
  });
  return { member, description, target };
}

/** Removes the delay and the packet loss of the target, or every delay and loss; says what it removed. */
export async function clearDelay(paths: LabPaths, t?: Target): Promise<{ readonly cleared: readonly string[] }> {
  const target = t === undefined || t === 'all' ? undefined : (await (await aim()).resolve(paths, t)).name;
  const { changeNet, requireMember } = await net();
  const { describeDelay } = await import('../../net/status.js');
  const { lossesOf, withoutLosses } = await import('./loss.js');
  const state = requireNetwork(paths);
  const member = target === undefined ? undefined : requireMember(state, target);
  const delays = state.net?.delays ?? [];
  const cleared = [
    ...delays.filter((d) => member === undefined || d.member === member).map(describeDelay),
    ...lossesOf(state.net, member),
  ];
  if (cleared.length > 0) {
    // One change for both: the delays and losses go together, whatever backend the lab has.
    await changeNet(paths, (n) => withoutLosses({ ...n, delays: clearDelays(n.delays, member) }, member));
    // Drills end a delay's window at a `heal`; `kind` tells it from the healing of a partition.
    (await import('../../lab/event-log.js')).recordLabEvent(paths, 'heal', {
      kind: 'delay',
      description: `clear delay ${member ?? 'all'}`,
      ...(member ? { target: member } : {}),
    });
  }
  return { cleared };
}

interface DelayStep {
  readonly target: string;
  readonly ms: number;
  readonly jitter: number;
}

const describeStep = (s: DelayStep) =>
  `delay ${s.target} by ${formatDuration(s.ms)}${s.jitter ? ` ± ${formatDuration(s.jitter)}` : ''}`;

export const delay = {
  name: 'delay',
  description: 'Add <ms> of round-trip latency to every link of a member (zkN, cN, leader, zk-leader); 0 removes it',
  liftDescription: 'Remove the delay and loss of a member, or every delay and loss',
  backends: { proxy: viaNetPlan, ns: viaNetPlan },
  windows: [
    windowRule<LabEventOf<'delay'>>({
      event: 'delay',
      colour: '#17becf',
      label: (e) => e.description,
      hits: (e) => [e.target],
      // The clearing of delays (a heal of kind delay) ends it; lifting partitions leaves it.
      endedBy: (ev, e) =>
        e.event === 'heal' &&
        e.kind === 'delay' &&
        (e.target === undefined || e.target === 'all' || e.target === ev.target),
    }),
  ],
  inspect: { text: (link) => `delay ${formatDuration(link.delayMs ?? 0)}` },
  steps: [
    ownStep({
      key: 'delay',
      summary: 'Delay every link of a member by ms, and by up to jitter more at random; heal clears it',
      examples: ['delay: { target: c2, ms: 300 }', 'delay: { target: zk1, ms: 300ms, jitter: 50ms }'],
      fields: (z) => ({
        target: stepTarget(z),
        ms: stepDuration(z, 'add ms: 300'),
        jitter: stepDuration(z).optional(),
      }),
      build: (v, ctx): DelayStep => ({ target: ctx.target(v.target, ['target']), ms: v.ms, jitter: v.jitter ?? 0 }),
      describe: describeStep,
      names: (s) => [s.target],
      async run(ctx, s) {
        const r = await (await aim()).resolve(ctx.paths, s.target);
        const appliedAt = Date.now();
        await applyDelay(ctx.paths, r, s.ms, s.jitter);
        return { description: describeStep(s).replace(s.target, ctx.shown(s.target, r)), appliedAt };
      },
    }),
  ],
} satisfies FaultKind;
