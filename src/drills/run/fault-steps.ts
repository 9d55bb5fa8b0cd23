import { stopContenders } from '../../contenders/service.js';
import { restartServers } from '../../ensemble/service.js';
import { zkLeader } from '../../faults/leader.js';
import * as faults from '../../faults/service.js';
import { resolveTarget, type Resolved } from '../../faults/targets.js';
import { describeStep } from '../format/describe.js';
import { describeStepTimes, ensembleAdd, ensembleRemove } from '../../ensemble/membership.js';
import { formatDuration } from '../../duration.js';
import type { Alias, RunState } from './state.js';
import { recalled, shown } from './aliases.js';
import type { KillSignal, Step } from '../format/step.js';

/** What a fault step did, for its StepResult. */
export interface FaultOutcome {
  readonly description: string;
  readonly detail?: string;
}

/** When the fault is applied: just before the service call, after targets are resolved (which takes a while). */
export interface FaultClock {
  at: number;
}

type FaultStep = Extract<
  Step,
  {
    kind:
      | 'kill'
      | 'pause'
      | 'resume'
      | 'stop'
      | 'restart'
      | 'add'
      | 'remove'
      | 'spawn'
      | 'partition'
      | 'heal'
      | 'delay';
  }
>;

export const FAULT_KINDS: ReadonlySet<Step['kind']> = new Set([
  'kill',
  'pause',
  'resume',
  'stop',
  'restart',
  'add',
  'remove',
  'spawn',
  'partition',
  'heal',
  'delay',
]);

export function isFaultStep(step: Step): step is FaultStep {
  return FAULT_KINDS.has(step.kind);
}

const remember = (memory: Map<Alias, string>, target: string, r: Resolved) => {
  if (target === 'leader' || target === 'zk-leader') memory.set(target, r.name);
};

async function kill(state: RunState, r: Resolved, sig: KillSignal, clock: FaultClock): Promise<string> {
  const paths = state.lab.paths;
  state.frozen.delete(r.name);
  // The services take KILL and TERM; SIGINT makes a contender close its session as TERM does.
  const signal = sig === 'SIGKILL' ? 'SIGKILL' : 'SIGTERM';
  clock.at = Date.now();
  const { pid } = await faults.kill(paths, r, signal);
  return `pid ${pid}${sig === signal ? '' : ` (${signal} for ${sig})`}`;
}

async function freeze(state: RunState, r: Resolved, pause: boolean, clock?: FaultClock): Promise<string> {
  const paths = state.lab.paths;
  if (clock) clock.at = Date.now();
  // A pause returns once the process is frozen (a resume right after must see it so).
  const opts = { signal: state.signal };
  const { pid } = await faults.freeze(paths, r, pause, opts);
  if (pause) state.frozen.add(r.name);
  else state.frozen.delete(r.name);
  return `pid ${pid}`;
}

async function resumeAll(state: RunState): Promise<FaultOutcome> {
  const names = [...state.frozen];
  for (const name of names) await freeze(state, { name, kind: name.startsWith('zk') ? 'server' : 'contender' }, false);
  return {
    description: 'resume all',
    detail: names.length === 0 ? 'nothing was frozen' : `resumed ${names.join(', ')}`,
  };
}

/** Runs one fault step through the lab's services. */
export async function runFault(state: RunState, step: FaultStep, clock: FaultClock): Promise<FaultOutcome> {
  const paths = state.lab.paths;
  const base = describeStep(step);
  const now = () => (clock.at = Date.now());
  switch (step.kind) {
    case 'kill': {
      const r = await resolveTarget(paths, step.target);
      const detail = await kill(state, r, step.signal, clock);
      return { description: base.replace(step.target, shown(step.target, r)), detail };
    }
    case 'pause': {
      const r = await resolveTarget(paths, step.target);
      remember(state.pausedAlias, step.target, r);
      return { description: `pause ${shown(step.target, r)}`, detail: await freeze(state, r, true, clock) };
    }
    case 'resume': {
      if (step.target === 'all') return resumeAll(state);
      const r = recalled(state.pausedAlias, step.target, 'resume');
      return { description: `resume ${shown(step.target, r)}`, detail: await freeze(state, r, false, clock) };
    }
    case 'stop': {
      const r = await resolveTarget(paths, step.target);
      state.frozen.delete(r.name);
      now();
      if (r.kind === 'contender') await stopContenders(paths, [r.name]);
      else await faults.kill(paths, r, 'SIGTERM');
      return { description: `stop ${shown(step.target, r)}` };
    }
    case 'restart': {
      const name = step.target === 'zk-leader' ? (await zkLeader(paths)).name : step.target;
      for (const frozen of [...state.frozen])
        if (frozen === name || (name === 'all' && frozen.startsWith('zk'))) state.frozen.delete(frozen);
      now();
      const { unavailableMs } = await restartServers(paths, name, { signal: state.signal, zkHome: state.zkHome });
      return {
        description: `restart ${step.target === name ? name : `${step.target} → ${name}`}`,
        detail: `${name} unavailable ${formatDuration(unavailableMs)} (SIGKILL → serving again)`,
      };
    }
    case 'add': {
      now();
      const r = await ensembleAdd(paths, { observer: step.role === 'observer', signal: state.signal });
      return {
        description: `add ${r.server} (${r.role}) by reconfig`,
        detail: `configuration ${r.config.version}: ${describeStepTimes(r.steps)}`,
      };
    }
    case 'remove': {
      const name = step.target === 'zk-leader' ? (await zkLeader(paths)).name : step.target;
      now();
      const r = await ensembleRemove(paths, name, { signal: state.signal });
      return {
        description: `remove ${step.target === name ? name : `${step.target} → ${name}`} by reconfig`,
        detail: `configuration ${r.config.version}: ${describeStepTimes(r.steps)}`,
      };
    }
    case 'spawn': {
      const ids = await state.lab.spawn(state.drill.contenders, step.count, state.signal);
      return { description: `${base}: ${ids.join(', ')}` };
    }
    case 'partition': {
      const p = step.partition;
      if (p.mode === 'isolate') {
        const r = await resolveTarget(paths, p.target);
        remember(state.partitionedAlias, p.target, r);
        now();
        await faults.isolate(paths, r);
        return { description: `partition: isolate ${shown(p.target, r)}` };
      }
      const groups: string[][] = [];
      for (const group of p.groups) {
        const names: string[] = [];
        for (const t of group) {
          const r = await resolveTarget(paths, t);
          remember(state.partitionedAlias, t, r);
          names.push(r.name);
        }
        groups.push(names);
      }
      now();
      const { description } = await faults.split(paths, groups);
      return { description: `partition: ${description}` };
    }
    case 'heal': {
      // A drill's heal restores the target's network whole: partitions lifted, delays cleared.
      const r = step.target === 'all' ? undefined : recalled(state.partitionedAlias, step.target, 'heal');
      now();
      const { healed } = await faults.heal(paths, r ?? 'all');
      const { cleared } = await faults.clearDelay(paths, r ?? 'all');
      const lifted = [...healed, ...cleared];
      return {
        description: r ? `heal ${shown(step.target, r)}` : 'heal all',
        detail: lifted.length === 0 ? 'nothing to heal' : `lifted ${lifted.join('; ')}`,
      };
    }
    case 'delay': {
      const r = await resolveTarget(paths, step.target);
      now();
      await faults.delay(paths, r, step.ms, step.jitter);
      return { description: base.replace(step.target, shown(step.target, r)) };
    }
  }
}
