import type { LabEventOf } from '../../lab/events.js';
import type { LabPaths } from '../../lab/paths.js';
import { requireState } from '../../lab/state.js';
import { plural } from '../../text.js';
import type { Target } from '../aim.js';
import type { Hit } from '../hit.js';
import type { FaultScope } from '../scope.js';
import type { Resolved } from '../targets.js';
import { type BackendHooks, type FaultKind, hooksFor, windowRule } from './kind.js';
import { ownStep, stepScope, stepTarget, type Zod } from './step.js';

/**
 * A kill: SIGKILL leaves a contender's session to expire, SIGTERM has it close its session at once; a server is
 * stopped either way. `scope`: the whole node (default) or the program's own process group (what it daemonized lives
 * on). `zklab kill`, drill step `kill: { target, signal, scope }`, inspect's kill keys, the demo's failover.
 */

// What applies it is loaded when it runs: the CLI's help and the drill reader load the declaration alone.
const aim = () => import('../aim.js');

export type KillSignal = 'SIGKILL' | 'SIGTERM';

/** A kill also says how many processes it ended (a node's, or the program's group) and how many of the node are left. */
export interface KillHit extends Hit {
  readonly processes: number;
  readonly left: number;
}

interface KillArgs {
  readonly target: Resolved;
  readonly sig: KillSignal;
  readonly scope: FaultScope;
}

/** Signals to the member's node, whatever the network: the same on every backend. */
const onNode: BackendHooks<KillArgs, Omit<KillHit, 'target'>> = {
  async apply(paths, { target, sig, scope }) {
    if (target.kind === 'contender') {
      const { contenderSignals } = await import('../contender-signals.js');
      return contenderSignals.kill(paths, target.name, sig, scope);
    }
    const { killServer } = await import('../server-signals.js');
    return { pid: (await killServer(paths, target.name, sig)).pid, processes: 1, left: 0 };
  },
};

/** Kills the target (resolved now when it is a name) with `sig`. */
export async function applyKill(
  paths: LabPaths,
  t: Target,
  sig: KillSignal,
  scope: FaultScope = 'node',
): Promise<KillHit> {
  const target = await (await aim()).resolve(paths, t);
  const hooks = hooksFor<KillArgs, Omit<KillHit, 'target'>>(kill, requireState(paths));
  return { target, ...(await hooks.apply(paths, { target, sig, scope })) };
}

const STEP_SIGNALS = ['SIGKILL', 'SIGTERM', 'SIGINT'] as const;
type StepSignal = (typeof STEP_SIGNALS)[number];

const stepSignal = (zod: Zod) =>
  zod.unknown().transform((value, ctx): StepSignal => {
    const name = typeof value === 'string' ? value.toUpperCase().replace(/^(SIG)?/, 'SIG') : '';
    if ((STEP_SIGNALS as readonly string[]).includes(name)) return name as StepSignal;
    ctx.addIssue({ code: 'custom', message: `${JSON.stringify(value)} is not a signal (use KILL, TERM or INT)` });
    return zod.NEVER;
  });

interface KillStep {
  readonly target: string;
  readonly signal: StepSignal;
  readonly scope: FaultScope;
}

const describeStep = (step: KillStep) => {
  const how = [
    ...(step.signal === 'SIGKILL' ? [] : [step.signal]),
    ...(step.scope === 'node' ? [] : ['its program alone']),
  ];
  return `kill ${step.target}${how.length === 0 ? '' : ` (${how.join(', ')})`}`;
};

export const kill = {
  name: 'kill',
  description: 'Kill a process of the lab: server zkN, zk-leader, leader, contender cN',
  backends: { proxy: onNode, ns: onNode, hosts: onNode },
  windows: [
    windowRule<LabEventOf<'contender-killed'>>({
      event: 'contender-killed',
      colour: '#d62728',
      label: (e) => `kill ${e.contender} (${e.signal})`,
      hits: (e) => [e.contender],
    }),
    windowRule<LabEventOf<'server-killed'>>({
      event: 'server-killed',
      colour: '#ff7f0e',
      label: (e) => `kill ${e.server} (${e.signal})`,
      hits: (e) => [e.server],
      endedBy: (ev, e) =>
        (e.event === 'server-restarted' || e.event === 'ensemble-repaired') && e.servers.includes(ev.server),
    }),
  ],
  steps: [
    ownStep({
      key: 'kill',
      summary:
        "Kill a member's node, every process of it, or with scope: process its program alone; KILL leaves a " +
        "contender's session to expire, TERM (or INT) closes it at once",
      examples: ['kill: leader', 'kill: zk-leader', 'kill: { target: leader, signal: TERM, scope: process }'],
      // `kill: c1` is short for `kill: { target: c1 }`.
      shorthand: 'target',
      fields: (z) => ({ target: stepTarget(z), signal: stepSignal(z).optional(), scope: stepScope(z).optional() }),
      build: (v, ctx): KillStep => ({
        target: ctx.target(v.target, ['target']),
        signal: v.signal ?? 'SIGKILL',
        scope: v.scope ?? 'node',
      }),
      describe: describeStep,
      names: (s) => [s.target],
      async run(ctx, step) {
        const r = await (await aim()).resolve(ctx.paths, step.target);
        ctx.frozen.delete(r.name);
        // A kill takes KILL and TERM; SIGINT makes a contender close its session as TERM does.
        const sig = step.signal === 'SIGKILL' ? 'SIGKILL' : 'SIGTERM';
        const appliedAt = Date.now();
        const { pid, processes, left } = await applyKill(ctx.paths, r, sig, step.scope);
        const reach = step.scope === 'node' ? plural(processes, 'process', 'processes') : `${left} of its node left`;
        const program = pid === undefined ? 'its program was not running' : `pid ${pid}`;
        return {
          description: describeStep(step).replace(step.target, ctx.shown(step.target, r)),
          detail: `${program}${step.signal === sig ? '' : ` (${sig} for ${step.signal})`}, ${reach}`,
          appliedAt,
        };
      },
    }),
  ],
} satisfies FaultKind;
