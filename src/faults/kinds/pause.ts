import { UsageError } from '../../errors.js';
import { contenderOf, type LabEventOf, serverOf } from '../../lab/events.js';
import type { LabPaths } from '../../lab/paths.js';
import { requireState } from '../../lab/state.js';
import type { Target } from '../aim.js';
import { type Hit, hitWords } from '../hit.js';
import type { FaultScope } from '../scope.js';
import type { Resolved, TargetKind } from '../targets.js';
import { type BackendHooks, type FaultKind, hooksFor, windowRule } from './kind.js';
import { FAULT_TARGETS_OR_ALL, ownStep, type StepRun, stepScope, stepTarget, valueStep } from './step.js';

/**
 * A pause: the member's node frozen (every process of it), or with scope process its program alone stopped
 * (SIGSTOP); a resume thaws it. `zklab pause` and `zklab resume` (`resume paused`: every paused member), drill steps
 * `pause: { target, scope }` and `resume: <target> | all`, inspect's pause key.
 */

// What applies it is loaded when it runs: the CLI's help and the drill reader load the declaration alone.
const aim = () => import('../aim.js');

interface FreezeArgs {
  readonly target: Resolved;
  readonly opts: { readonly signal?: AbortSignal; readonly scope?: FaultScope };
}

async function signalled(
  paths: LabPaths,
  { target, opts }: FreezeArgs,
  freezing: boolean,
): Promise<Omit<Hit, 'target'>> {
  if (target.kind === 'contender') {
    const { contenderSignals } = await import('../contender-signals.js');
    return contenderSignals.pause(paths, target.name, freezing, opts);
  }
  return (await import('../server-signals.js')).pauseServer(paths, target.name, freezing, opts);
}

/** Signals to the member's node, whatever the network: the same on every backend. */
const onNode: BackendHooks<FreezeArgs, Omit<Hit, 'target'>> = {
  apply: (paths, args) => signalled(paths, args, true),
  lift: (paths, args) => signalled(paths, args, false),
};

/** The lab's members that are paused now (their node frozen, or their process stopped), servers first. */
export async function pausedMembers(paths: LabPaths): Promise<Resolved[]> {
  const { isOurs } = await import('../../lab/node/procs.js');
  const { isPaused } = await import('../../lab/nodes.js');
  const { contenderPaused } = await import('../contender-signals.js');
  const state = requireState(paths);
  const paused = (pid: number | undefined) => isOurs(pid, paths.markers) && isPaused(pid!);
  return [
    ...state.servers.filter((s) => paused(s.pid)).map((s): Resolved => ({ name: s.name, kind: 'server' })),
    ...state.contenders
      .filter((c) => contenderPaused(paths, c))
      .map((c): Resolved => ({ name: c.id, kind: 'contender' })),
  ];
}

/**
 * Freezes (`freezing`) or thaws the target; a pause returns once it is frozen. `scope`: the whole node (default) or the
 * program's own process group (SIGSTOP).
 */
export async function freeze(
  paths: LabPaths,
  t: Target,
  freezing: boolean,
  opts: { signal?: AbortSignal; scope?: FaultScope } = {},
): Promise<Hit> {
  const target = await (await aim()).resolve(paths, t);
  if (!freezing && t === 'leader') await refuseResumeOfNewLeader(paths, target);
  const hooks = hooksFor<FreezeArgs, Omit<Hit, 'target'>>(pause, requireState(paths));
  const args = { target, opts };
  return { target, ...(await (freezing ? hooks.apply(paths, args) : hooks.lift!(paths, args))) };
}

/**
 * `resume leader` after `pause leader`: the frozen leader lost its session, so `leader` now names the next one.
 * Say which contenders are paused and how to resume them.
 */
async function refuseResumeOfNewLeader(paths: LabPaths, leader: Resolved): Promise<void> {
  const paused = (await pausedMembers(paths)).filter((m) => m.kind === 'contender');
  if (paused.some((m) => m.name === leader.name) || paused.length === 0) return;
  const names = paused.map((m) => m.name).join(', ');
  throw new UsageError(
    `${leader.name} leads now and is not paused; paused: ${names} (the one \`pause leader\` froze lost its lead)`,
    `resume it by name, \`zklab resume contender ${paused[0]!.name}\`, or all of them: \`zklab resume paused\``,
  );
}

/** Freezes or thaws a member in a drill run, and keeps the run's frozen set up to date; the detail of its step. */
async function freezeInRun(ctx: StepRun, r: Resolved, freezing: boolean, scope: FaultScope = 'node'): Promise<string> {
  // A pause returns once the node is frozen (a resume right after must see it so).
  const hit = await freeze(ctx.paths, r, freezing, { signal: ctx.signal, scope });
  if (freezing) ctx.frozen.add(r.name);
  else ctx.frozen.delete(r.name);
  return hitWords(hit);
}

const alone = (scope: FaultScope) => (scope === 'node' ? '' : ' (its program alone)');

/** What a resume may name: a member, an alias, or every member this run froze (`all`, or `paused` as the CLI says). */
const RESUMABLE: readonly TargetKind[] = [...FAULT_TARGETS_OR_ALL, 'paused'];

export const pause = {
  name: 'pause',
  description: 'Freeze a node, every process of it (server zkN, zk-leader, leader, contender cN)',
  liftDescription: 'Thaw a frozen node (server zkN, contender cN, leader, or paused: every paused one)',
  backends: { proxy: onNode, ns: onNode, hosts: onNode },
  windows: [
    windowRule<LabEventOf<'contender-paused'>>({
      event: 'contender-paused',
      colour: '#8e6bbf',
      label: (e) => `pause ${e.contender}`,
      hits: (e) => [e.contender],
      endedBy: (ev, e) =>
        ['contender-resumed', 'contender-killed', 'contender-stopped'].includes(e.event) &&
        contenderOf(e) === ev.contender,
    }),
    windowRule<LabEventOf<'server-paused'>>({
      event: 'server-paused',
      colour: '#bcbd22',
      label: (e) => `pause ${e.server}`,
      hits: (e) => [e.server],
      endedBy: (ev, e) => ['server-resumed', 'server-killed'].includes(e.event) && serverOf(e) === ev.server,
    }),
  ],
  steps: [
    ownStep({
      key: 'pause',
      summary: "Freeze a member's node, every process of it, or with scope: process its program alone (SIGSTOP)",
      examples: ['pause: leader', 'pause: { target: c2, scope: process }'],
      // `pause: c1` is short for `pause: { target: c1 }`.
      shorthand: 'target',
      fields: (z) => ({ target: stepTarget(z), scope: stepScope(z).optional() }),
      build: (v, ctx) => ({ target: ctx.target(v.target, ['target']), scope: v.scope ?? 'node' }),
      describe: (s) => `pause ${s.target}${alone(s.scope)}`,
      names: (s) => [s.target],
      async run(ctx, s) {
        const r = await (await aim()).resolve(ctx.paths, s.target);
        ctx.remember('paused', s.target, r);
        const appliedAt = Date.now();
        const description = `pause ${ctx.shown(s.target, r)}${alone(s.scope)}`;
        return { description, detail: await freezeInRun(ctx, r, true, s.scope), appliedAt };
      },
    }),
    valueStep({
      key: 'resume',
      summary:
        'Thaw a member (leader: the one the latest pause of leader froze); all, or paused, thaws every one this run froze',
      examples: ['resume: leader', 'resume: c2', 'resume: paused'],
      value: stepTarget,
      build: (name, ctx) => ({ target: ctx.target(name, [], RESUMABLE) }),
      describe: (s) => `resume ${s.target}`,
      names: (s) => [s.target],
      // `leader` is the contender the latest pause of `leader` hit; `all` and `paused`, what this run froze.
      async run(ctx, s) {
        if (s.target === 'all' || s.target === 'paused') {
          const names = [...ctx.frozen];
          for (const name of names)
            await freezeInRun(ctx, { name, kind: name.startsWith('zk') ? 'server' : 'contender' }, false);
          return {
            description: `resume ${s.target}`,
            detail: names.length === 0 ? 'nothing was frozen' : `resumed ${names.join(', ')}`,
          };
        }
        const r = ctx.recall('paused', s.target, 'resume');
        const appliedAt = Date.now();
        return { description: `resume ${ctx.shown(s.target, r)}`, detail: await freezeInRun(ctx, r, false), appliedAt };
      },
    }),
  ],
} satisfies FaultKind;
