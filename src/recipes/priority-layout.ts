import { isRecord } from '../validate.js';
import type { RecipeOptions } from './types.js';

/** leader/current's data: the elected contender is taking over (PROGRESS), then leads (READY). */
export const PROGRESS = 'PROGRESS';
export const READY = 'READY';

export const DEFAULT_TAKEOVER_MS = 500;

export interface PriorityPaths {
  readonly nodes: string;
  readonly election: string;
  readonly leader: string;
  readonly elected: string;
  readonly current: string;
}

export function priorityPaths(root: string): PriorityPaths {
  return {
    nodes: `${root}/nodes`,
    election: `${root}/election`,
    leader: `${root}/leader`,
    elected: `${root}/leader/elected`,
    current: `${root}/leader/current`,
  };
}

export function takeoverMsOf(opts: Pick<RecipeOptions, 'takeoverMs'>): number {
  return opts.takeoverMs ?? DEFAULT_TAKEOVER_MS;
}

/** Long enough for a healthy takeover several times over, plus the round trips around it. */
export function watchdogMsOf(opts: Pick<RecipeOptions, 'takeoverMs' | 'watchdogMs'>): number {
  return opts.watchdogMs ?? 3 * takeoverMsOf(opts) + 1000;
}

export interface MemberInfo {
  readonly id: string;
  readonly pid: number;
  readonly priority: number;
  readonly site: string | null;
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return isRecord(v) ? v : {};
  } catch {
    return {};
  }
}

/** What this contender writes to nodes/<id>: the options win over the memberData the runtime passed. */
export function ownMemberInfo(
  opts: Pick<RecipeOptions, 'id' | 'priority' | 'site'>,
  memberData: string,
  pid: number,
): MemberInfo {
  const given = parseObject(memberData);
  return {
    id: opts.id,
    pid: typeof given.pid === 'number' ? given.pid : pid,
    priority: opts.priority ?? (typeof given.priority === 'number' ? given.priority : 0),
    site: opts.site ?? (typeof given.site === 'string' ? given.site : null),
  };
}

/** Reads a nodes/<name> entry leniently: a member with unreadable data still counts, with priority 0 and no site. */
export function parseMemberInfo(name: string, data: string): MemberInfo {
  const v = parseObject(data);
  const priority = typeof v.priority === 'number' && Number.isFinite(v.priority) ? v.priority : 0;
  return {
    id: name,
    pid: typeof v.pid === 'number' ? v.pid : 0,
    priority,
    site: typeof v.site === 'string' && v.site !== '' ? v.site : null,
  };
}
