import { ProcessError } from '../../errors.js';
import { targetKind, type Resolved } from '../../faults/targets.js';

/** A fault's aim as the step named it (`leader`, `zk-leader`) and what that resolved to. */
export type Alias = 'leader' | 'zk-leader';

/** After a pause or partition: what its `leader` / `zk-leader` hit, for the matching resume or heal. */
export function remember(memory: Map<Alias, string>, target: string, r: Resolved): void {
  if (target === 'leader' || target === 'zk-leader') memory.set(target, r.name);
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
