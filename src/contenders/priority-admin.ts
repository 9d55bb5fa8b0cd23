/**
 * The administrator's side of the priority election: reading and writing `<path>/policy` (src/recipes/
 * priority-policy.ts), which the elector watches. Any ZooKeeper client could write it; this is zklab's.
 */
import { UsageError } from '../errors.js';
import type { LabPaths } from '../lab/paths.js';
import { isOurs } from '../lab/node/procs.js';
import type { ContenderRecord, LabState } from '../lab/state.js';
import { isCode, unlessGone } from '../zk/errors.js';
import { withObserver } from '../zk/observer.js';
import type { ZkPort } from '../zk/port.js';
import { parseMemberInfo, priorityPaths, READY } from '../recipes/priority-layout.js';
import {
  EMPTY_POLICY,
  parseAdminPolicy,
  policyPath,
  preferSite,
  serializeAdminPolicy,
  withPriority,
  type AdminPolicy,
} from '../recipes/priority-policy.js';
import { compareIds } from '../recipes/elector-policy.js';
import { labConnect } from './jobs.js';

export interface PriorityMember {
  readonly id: string;
  readonly site: string | null;
  /** What it registered with (nodes/<id>). */
  readonly registered: number;
  /** What the elector uses: the policy's override, else the registered one. */
  readonly effective: number;
}

export interface PriorityView {
  readonly path: string;
  readonly policy: AdminPolicy;
  /** What the elector cannot use of the policy znode as written. */
  readonly problems: readonly string[];
  /** The policy znode's version; null when there is none. */
  readonly version: number | null;
  readonly members: readonly PriorityMember[];
  readonly elected: string | null;
  /** Who holds leader/current, and whether its takeover is done. */
  readonly current: { readonly holder: string | null; readonly state: 'PROGRESS' | 'READY' } | null;
  /** Whether the lab's live contenders on the path pre-empt (null: none is running). */
  readonly preempt: boolean | null;
}

const alive = (paths: LabPaths, c: ContenderRecord): boolean => isOurs(c.pid, paths.markers);

/** The priority election a command means: --path, else the one the lab's running priority contenders use. */
function electionPath(paths: LabPaths, state: LabState, path: string | undefined): string {
  if (path !== undefined) return path;
  const priority = state.contenders.filter((c) => c.recipe === 'priority');
  const running = priority.filter((c) => alive(paths, c));
  const found = [...new Set((running.length > 0 ? running : priority).map((c) => c.path))];
  if (found.length === 0)
    throw new UsageError(
      `the lab at ${paths.root} has no priority contenders`,
      'spawn some with `zklab contenders spawn 3 --recipe priority`, or name an election with --path',
    );
  if (found.length > 1)
    throw new UsageError(`this lab has priority elections at ${found.join(' and ')}`, 'say which with --path');
  return found[0]!;
}

async function readPolicy(
  zk: ZkPort,
  path: string,
): Promise<{ policy: AdminPolicy; problems: string[]; version: number | null }> {
  const read = await unlessGone(zk.getData(policyPath(path)));
  if (!read) return { policy: EMPTY_POLICY, problems: [], version: null };
  return { ...parseAdminPolicy(read.data.toString()), version: read.stat.version };
}

async function readMembers(
  zk: ZkPort,
  path: string,
): Promise<{ id: string; site: string | null; priority: number; session: string }[]> {
  const { nodes } = priorityPaths(path);
  const names = (await unlessGone(zk.getChildren(nodes))) ?? [];
  const reads = await Promise.all(names.map((n) => unlessGone(zk.getData(`${nodes}/${n}`))));
  return names.flatMap((n, i) => {
    const r = reads[i];
    if (!r) return [];
    const info = parseMemberInfo(n, r.data.toString());
    return [{ id: info.id, site: info.site, priority: info.priority, session: r.stat.ephemeralOwner }];
  });
}

export async function showPriority(paths: LabPaths, opts: { path?: string } = {}): Promise<PriorityView> {
  const { state, connect } = labConnect(paths);
  const path = electionPath(paths, state, opts.path);
  const p = priorityPaths(path);
  return withObserver(connect, async (zk) => {
    const [policy, members, elected, current] = await Promise.all([
      readPolicy(zk, path),
      readMembers(zk, path),
      unlessGone(zk.getData(p.elected)),
      unlessGone(zk.getData(p.current)),
    ]);
    const live = state.contenders.filter((c) => c.recipe === 'priority' && c.path === path && alive(paths, c));
    return {
      path,
      ...policy,
      members: members
        .map((m) => ({
          id: m.id,
          site: m.site,
          registered: m.priority,
          effective: Object.hasOwn(policy.policy.priorities, m.id) ? policy.policy.priorities[m.id]! : m.priority,
        }))
        .sort((a, b) => compareIds(a.id, b.id)),
      elected: elected ? elected.data.toString().trim() : null,
      current: current
        ? {
            holder: members.find((m) => m.session === current.stat.ephemeralOwner)?.id ?? null,
            state: current.data.toString() === READY ? 'READY' : 'PROGRESS',
          }
        : null,
      preempt: live.length === 0 ? null : live.every((c) => c.preempt !== false),
    };
  });
}

/**
 * Rewrites the policy znode with `change`, conditional on the version read: another writer in between (a change,
 * a creation, a deletion) means reading again.
 */
async function updatePolicy(zk: ZkPort, path: string, change: (p: AdminPolicy) => AdminPolicy): Promise<AdminPolicy> {
  for (let attempt = 1; ; attempt++) {
    const { policy, version } = await readPolicy(zk, path);
    const next = change(policy);
    try {
      if (version === null) await zk.create(policyPath(path), serializeAdminPolicy(next), 'persistent');
      else await zk.setData(policyPath(path), serializeAdminPolicy(next), version);
      return next;
    } catch (e) {
      // NONODE on a create: the election itself is gone; a few tries tell that from a deletion racing us.
      if (!isCode(e, 'BADVERSION', 'NODEEXISTS', 'NONODE') || attempt >= 10) throw e;
    }
  }
}

/** `priority set cN P`: cN must be a running priority contender of the lab, P a whole number. */
export async function setPriority(
  paths: LabPaths,
  id: string,
  value: string,
  opts: { path?: string } = {},
): Promise<{ path: string; policy: AdminPolicy }> {
  const { state, connect } = labConnect(paths);
  const rec = state.contenders.find((c) => c.id === id);
  if (!rec)
    throw new UsageError(
      `no contender ${id} in this lab`,
      `contenders: ${state.contenders.map((c) => c.id).join(', ') || 'none'}`,
    );
  if (rec.recipe !== 'priority')
    throw new UsageError(
      `${id} runs ${rec.lock ? 'the lock workload' : rec.scheduler ? 'the scheduler workload' : `the ${rec.recipe} recipe`}` +
        ', not the priority recipe',
      'priorities apply to contenders spawned with --recipe priority',
    );
  if (!alive(paths, rec))
    throw new UsageError(
      `${id} is not running`,
      'set the priority of a running priority contender (`zklab contenders list`)',
    );
  if (opts.path !== undefined && opts.path !== rec.path)
    throw new UsageError(
      `${id} contends at ${rec.path}, not at ${opts.path}`,
      `leave out --path (a contender's election is its own), or name a contender of ${opts.path}`,
    );
  const priority = Number(value.trim());
  if (value.trim() === '' || !Number.isInteger(priority))
    throw new UsageError(`priority "${value}" is not a whole number`, `e.g. \`zklab priority set ${id} 50\``);
  const policy = await withObserver(connect, (zk) => updatePolicy(zk, rec.path, (p) => withPriority(p, id, priority)));
  return { path: rec.path, policy };
}

/** `priority prefer-site S`: S must be a site the election knows (a member's, a lab contender's, or in the policy). */
export async function preferSiteOf(
  paths: LabPaths,
  site: string,
  opts: { path?: string } = {},
): Promise<{ path: string; policy: AdminPolicy }> {
  const { state, connect } = labConnect(paths);
  const path = electionPath(paths, state, opts.path);
  return withObserver(connect, async (zk) => {
    const [members, { policy }] = await Promise.all([readMembers(zk, path), readPolicy(zk, path)]);
    const known = [
      ...new Set([
        ...state.contenders
          .filter((c) => c.recipe === 'priority' && c.path === path)
          .flatMap((c) => (c.site ? [c.site] : [])),
        ...members.flatMap((m) => (m.site ? [m.site] : [])),
        ...policy.sites,
      ]),
    ].sort();
    if (!known.includes(site)) {
      throw new UsageError(
        `no site "${site}" in the election at ${path}`,
        known.length > 0
          ? `known sites: ${known.join(', ')}`
          : 'its contenders have no sites: spawn them with --site a,b,…',
      );
    }
    const blind = state.contenders.find(
      (c) =>
        c.recipe === 'priority' &&
        c.path === path &&
        alive(paths, c) &&
        (c.policy === 'first' || c.policy === 'round-robin'),
    );
    if (blind) {
      throw new UsageError(
        `the election at ${path} elects by ${blind.policy} (${blind.id}): the site order would change nothing`,
        'sites count under --policy priority or site',
      );
    }
    return { path, policy: await updatePolicy(zk, path, (p) => preferSite(p, site, known)) };
  });
}
