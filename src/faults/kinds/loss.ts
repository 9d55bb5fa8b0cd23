import { UsageError } from '../../errors.js';
import { fields, type LabLinesOf } from '../../lab/event-schema.js';
import type { MemberLoss } from '../../lab/net-plan.js';
import type { LabPaths } from '../../lab/paths.js';
import { type LabNetState, requireNetwork } from '../../lab/state.js';
import { clearLosses, describeLoss, setLoss } from '../../net/partition.js';
import type { Target } from '../aim.js';
import type { Resolved } from '../targets.js';
import { type BackendHooks, type FaultKind, hooksFor, windowRule } from './kind.js';
import { ownStep, stepTarget } from './step.js';

/**
 * Packet loss: a share of every packet to and from one member dropped at random, both ways. Only a kernel can drop
 * packets (the node network: nftables' `numgen random` in each namespace); link proxies carry whole connections.
 * `zklab net loss`, drill step `loss: { target, percent }`; 0 % ends it, as `net clear` and a drill's heal do
 * (delay.ts's clearDelay, with lossesOf and withoutLosses below).
 */

const MAX_PERCENT = 100;

// What applies it is loaded when it runs: the CLI's help and the drill reader load the declaration alone.
const net = () => import('../../net/service.js');
const aim = () => import('../aim.js');

const events = {
  /** A fraction of a node's packets dropped at random (the node network); 0 ends it, as `net clear` does. */
  loss: fields<{ description: string; target: string; percent: number }>(),
};
type LossLine = LabLinesOf<typeof events>;

/** Through the lab's network plan: the kernel of each node drops what the plan says. */
const viaNetPlan: BackendHooks<MemberLoss> = {
  async apply(paths, l) {
    await (await net()).changeNet(paths, (n) => ({ ...n, losses: setLoss(n.losses ?? [], l) }));
  },
  async lift(paths, l) {
    await (await net()).changeNet(paths, (n) => ({ ...n, losses: clearLosses(n.losses ?? [], l.member) }));
  },
};

export interface LossResult {
  readonly member: string;
  readonly description: string;
  readonly target: Resolved;
}

/** A share as a command line gives it (`30`, `30%`, `2.5`): checked before the lab is read. */
export function lossPercentArg(text: string): number {
  const t = text.trim().replace(/%$/, '');
  const n = /^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(t) ? Number(t) : Number.NaN;
  const problem = Number.isNaN(n)
    ? 'is not a number'
    : n < 0
      ? 'is negative'
      : n > MAX_PERCENT
        ? `is above ${MAX_PERCENT}`
        : undefined;
  if (problem === undefined) return n;
  throw new UsageError(
    `<percent>: ${JSON.stringify(text)} ${problem}`,
    `give a share of the packets from 0 to ${MAX_PERCENT}, e.g. \`zklab net loss c1 30\` (0 ends it)`,
  );
}

/** Drops `percent` % of a member's packets, both ways, at random (the node network only); 0 ends it. */
export async function applyLoss(paths: LabPaths, t: Target, percent: number): Promise<LossResult> {
  const { refuseDeadContender, resolve } = await aim();
  const target = await resolve(paths, t);
  if (percent > 0) refuseDeadContender(paths, target, 'a loss');
  if (typeof percent !== 'number' || !Number.isFinite(percent) || percent < 0 || percent > MAX_PERCENT) {
    throw new UsageError(
      `a loss must be a percentage from 0 to ${MAX_PERCENT}, got ${String(percent)}`,
      'e.g. `zklab net loss c1 30` (0 ends it)',
    );
  }
  const state = requireNetwork(paths);
  const member = (await net()).requireMember(state, target.name);
  const l = { member, percent };
  await hooksFor<MemberLoss>(loss, state).apply(paths, l);
  const description = describeLoss(l);
  (await import('../../lab/event-log.js')).recordLabLine(paths, events, 'loss', {
    description,
    target: member,
    percent,
  });
  return { member, description, target };
}

/** The losses `net clear` (and a drill's heal) lifts with the delays: the member's, or every one; described. */
export const lossesOf = (n: LabNetState | undefined, member?: string): string[] =>
  (n?.losses ?? []).filter((l) => member === undefined || l.member === member).map(describeLoss);

/** The network without the member's loss, or without any. */
export const withoutLosses = (n: LabNetState, member?: string): LabNetState => ({
  ...n,
  losses: clearLosses(n.losses ?? [], member),
});

const describeStep = (s: { target: string; percent: number }) => `loss ${s.target} ${s.percent}%`;

export const loss = {
  name: 'loss',
  description: "Drop <percent> % of a member's packets, both ways, at random (a lab on its node network: --net ns)",
  needs: 'packet loss',
  events,
  backends: { ns: viaNetPlan, hosts: viaNetPlan },
  windows: [
    windowRule<LossLine>({
      event: 'loss',
      colour: '#9467bd',
      // A loss of 0 % is the end of one, not a fault.
      opens: (e) => e.percent !== 0,
      label: (e) => e.description,
      hits: (e) => [e.target],
      // Another loss for the same member replaces it; `net clear` ends it as it ends delays.
      endedBy: (ev, e) =>
        e.event === 'loss'
          ? e.target === ev.target
          : e.event === 'heal' &&
            e.kind === 'delay' &&
            (e.target === undefined || e.target === 'all' || e.target === ev.target),
    }),
  ],
  inspect: {
    links: (state) =>
      (state.net?.losses ?? []).map((l) => ({ from: l.member, to: 'all', fault: 'loss', lossPercent: l.percent })),
    text: (link) => `loss ${link.lossPercent ?? 0}%`,
  },
  steps: [
    ownStep({
      key: 'loss',
      summary: "Drop a share of a member's packets at random, both ways (net: ns); heal clears it, as percent: 0 does",
      examples: ['loss: { target: c2, percent: 30 }'],
      fields: (z) => ({
        target: stepTarget(z),
        percent: z.number({ error: 'is not a percentage (write a number from 0 to 100)' }).min(0).max(100),
      }),
      build: (v, ctx) => ({ target: ctx.target(v.target, ['target']), percent: v.percent }),
      describe: describeStep,
      names: (s) => [s.target],
      async run(ctx, s) {
        const r = await (await aim()).resolve(ctx.paths, s.target);
        const appliedAt = Date.now();
        await applyLoss(ctx.paths, r, s.percent);
        return { description: describeStep(s).replace(s.target, ctx.shown(s.target, r)), appliedAt };
      },
    }),
  ],
} satisfies FaultKind<typeof events>;
