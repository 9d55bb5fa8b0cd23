import { UsageError } from '../errors.js';
import type { LabPaths } from '../lab/paths.js';
import { requireState, type LabState } from '../lab/state.js';
import { labMembers } from '../net/lab-links.js';

/**
 * What a fault can point at, from the CLI, a drill step or inspect's keys. `leader` is the contender that leads when
 * the step runs, `zk-leader` the ZooKeeper server that leads the quorum then; the runner resolves both at that moment.
 * Concrete names are zk1..zkN (servers, 1-based, matching the ensemble's sids) and c1..cM (contenders, in spawn order).
 * `paused` is every member paused (what a resume may name, as `zklab resume paused` does).
 */
export type TargetKind = 'leader' | 'zk-leader' | 'all' | 'paused' | 'contender' | 'server';

const CONTENDER = /^c([1-9]\d*)$/;
const SERVER = /^zk([1-9]\d*)$/;

export function targetKind(name: string): TargetKind | undefined {
  if (name === 'leader' || name === 'zk-leader' || name === 'all' || name === 'paused') return name;
  if (CONTENDER.test(name)) return 'contender';
  if (SERVER.test(name)) return 'server';
  return undefined;
}

/** How many servers and contenders exist at a step (spawn steps add contenders as the drill goes). */
export interface TargetScope {
  readonly servers: number;
  readonly contenders: number;
}

function range(prefix: string, n: number): string {
  if (n === 0) return `no ${prefix === 'c' ? 'contenders' : 'servers'}`;
  return n === 1 ? `${prefix}1` : `${prefix}1..${prefix}${n}`;
}

function kindList(kinds: readonly TargetKind[], scope: TargetScope): string {
  return kinds
    .map((k) => (k === 'contender' ? range('c', scope.contenders) : k === 'server' ? range('zk', scope.servers) : k))
    .join(', ');
}

/**
 * Null when `name` is one of `allowed` and exists in `scope`; otherwise an error text in the
 * "what is wrong (what to do)" form.
 */
export function checkTarget(name: string, allowed: readonly TargetKind[], scope: TargetScope): string | null {
  const use = `(use ${kindList(allowed, scope)})`;
  const kind = targetKind(name);
  if (kind === undefined) return `${JSON.stringify(name)} is not a target ${use}`;
  if (!allowed.includes(kind)) {
    const what = kind === 'contender' ? 'a contender' : kind === 'server' ? 'a server' : `"${kind}"`;
    return `${what} is not allowed here ${use}`;
  }
  const n = Number((CONTENDER.exec(name) ?? SERVER.exec(name))?.[1] ?? 0);
  if (kind === 'contender' && n > scope.contenders) {
    return `${name} does not exist: the drill has ${scope.contenders} contender(s) at this step ${use}`;
  }
  if (kind === 'server' && n > scope.servers) {
    return `${name} does not exist: the ensemble has ${scope.servers} server(s) ${use}`;
  }
  if (kind === 'leader' && scope.contenders === 0) return `there are no contenders to lead ${use}`;
  return null;
}

/** Ids c1..cN. */
export function contenderIds(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `c${i + 1}`);
}

/** Ids zk1..zkN. */
export function serverIds(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `zk${i + 1}`);
}

/** A target as a fault hits it: a concrete contender (cN) or server (zkN). */
export interface Resolved {
  readonly name: string;
  readonly kind: 'contender' | 'server';
}

/** What a fault can name in this lab, for hints. */
export function targetsHint(state: LabState): string {
  const ids = state.contenders.map((c) => c.id);
  const contenders = ids.length === 0 ? [] : ids.length <= 3 ? ids : [`${ids[0]}..${ids.at(-1)}`];
  const aliases = ['leader (the leading contender)', 'zk-leader (the leading server)'];
  return `targets: ${[...state.servers.map((s) => s.name), ...contenders, ...aliases].join(', ')}`;
}

/** True when the name is a member of the lab (server zkN or contender cN, dead ones included). */
export function isMember(state: LabState, name: string): boolean {
  return labMembers(state).includes(name);
}

/** Checks a target without asking anyone: a member name, `leader` or `zk-leader`. */
export function checkTargetName(state: LabState, name: string): void {
  if (state.external?.some((x) => x.name === name)) {
    throw new UsageError(
      `${name} is a server of an ensemble outside the lab; zklab can only cut or slow its contenders' links to it`,
      'name a contender (cN) or leader',
    );
  }
  if (name === 'leader' || name === 'zk-leader' || isMember(state, name)) return;
  throw new UsageError(`unknown target "${name}"`, targetsHint(state));
}

/**
 * The member a target names now: `leader` by ZooKeeper's own election state (the owner of the leading znode),
 * `zk-leader` by the servers' own srvr; a member name as it is. The one resolver of the CLI, drills and inspect.
 */
export async function resolveTarget(
  paths: LabPaths,
  name: string,
  state: LabState = requireState(paths),
): Promise<Resolved> {
  checkTargetName(state, name);
  // Who leads is asked of ZooKeeper, when a name needs it: what checks or shows targets loads no client.
  const leader = () => import('./leader.js');
  if (name === 'leader')
    return { name: (await (await leader()).resolveLeader(paths, state)).contender.id, kind: 'contender' };
  if (name === 'zk-leader') return { name: (await (await leader()).zkLeader(paths)).name, kind: 'server' };
  return { name, kind: state.servers.some((s) => s.name === name) ? 'server' : 'contender' };
}

/** Splits `zk1,c2` into names; refuses empty names. */
export function parseGroup(text: string): string[] {
  const names = text.split(',').map((n) => n.trim());
  if (names.some((n) => n.length === 0)) {
    throw new UsageError(
      `the group "${text}" has an empty name`,
      'write a group as comma-separated names without spaces, e.g. zk1,c2',
    );
  }
  return names;
}
