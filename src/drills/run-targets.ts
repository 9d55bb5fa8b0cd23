import { resolveLeader } from '../contenders/faults.js';
import { zkLeader } from '../ensemble/server-faults.js';
import { ProcessError } from '../errors.js';
import type { Alias, RunState } from './run-state.js';
import { targetKind } from './targets.js';

/** A target as the step runs it: a concrete contender (cN) or server (zkN). */
export interface Resolved {
  readonly name: string;
  readonly kind: 'contender' | 'server';
}

/**
 * Resolves `leader` (by ZooKeeper's own state: the owner of the leading znode) and `zk-leader` (the server whose
 * srvr says it leads) at the moment the step runs; concrete names pass through.
 */
export async function resolveTarget(state: RunState, target: string): Promise<Resolved> {
  const paths = state.lab.paths;
  if (target === 'leader') return { name: (await resolveLeader(paths)).contender.id, kind: 'contender' };
  if (target === 'zk-leader') return { name: (await zkLeader(paths)).name, kind: 'server' };
  const kind = targetKind(target);
  if (kind === 'contender' || kind === 'server') return { name: target, kind };
  throw new ProcessError(`cannot aim a fault at "${target}" here`);
}

/** For resume / heal: `leader` and `zk-leader` mean whatever the matching pause / partition hit. */
export function recalled(memory: ReadonlyMap<Alias, string>, target: string, verb: string): Resolved {
  if (target !== 'leader' && target !== 'zk-leader') {
    const kind = targetKind(target);
    if (kind === 'contender' || kind === 'server') return { name: target, kind };
    throw new ProcessError(`cannot ${verb} "${target}"`);
  }
  const name = memory.get(target);
  if (name === undefined) {
    throw new ProcessError(`nothing to ${verb}: no earlier step of this drill hit "${target}"`);
  }
  return { name, kind: target === 'leader' ? 'contender' : 'server' };
}

/** "leader → c1" when the step named an alias, else the name. */
export function shown(target: string, r: Resolved): string {
  return target === r.name ? r.name : `${target} → ${r.name}`;
}
