import { resolveLeader } from '../contenders/faults.js';
import { zkLeader } from '../ensemble/server-faults.js';
import { UsageError } from '../errors.js';
import type { LabPaths } from '../lab/paths.js';
import type { LabState } from '../lab/state.js';

/** What a network fault can name, for hints. */
export function targetsHint(state: LabState): string {
  const ids = state.contenders.map((c) => c.id);
  const contenders = ids.length === 0 ? [] : ids.length <= 3 ? ids : [`${ids[0]}..${ids.at(-1)}`];
  return `targets: ${[...state.servers.map((s) => s.name), ...contenders, 'leader (the leading contender)', 'zk-leader (the leading server)'].join(', ')}`;
}

/** True when the name is a member of the lab (server zkN or contender cN, dead ones included). */
export function isMember(state: LabState, name: string): boolean {
  return state.servers.some((s) => s.name === name) || state.contenders.some((c) => c.id === name);
}

/** Checks a target without asking anyone: a member name, `leader` or `zk-leader`. */
export function checkTargetName(state: LabState, name: string): void {
  if (name === 'leader' || name === 'zk-leader' || isMember(state, name)) return;
  throw new UsageError(`unknown target "${name}"`, targetsHint(state));
}

/** The member a target names now: `leader` by ZooKeeper's own election state, `zk-leader` by the servers' srvr. */
export async function resolveTarget(paths: LabPaths, state: LabState, name: string): Promise<string> {
  checkTargetName(state, name);
  if (name === 'leader') return (await resolveLeader(paths, state)).contender.id;
  if (name === 'zk-leader') return (await zkLeader(paths)).name;
  return name;
}

/** Splits `zk1,c2` into names; refuses empty names. */
export function parseGroup(text: string): string[] {
  const names = text.split(',').map((n) => n.trim());
  if (names.some((n) => n.length === 0)) {
    throw new UsageError(`the group "${text}" has an empty name`, 'write a group as comma-separated names without spaces, e.g. zk1,c2');
  }
  return names;
}
