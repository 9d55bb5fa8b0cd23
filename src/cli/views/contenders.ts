import chalk from 'chalk';
import type { ContenderInfo, ContendersNetwork, SpawnResult } from '../../contenders/service.js';
import type { JoinProgress } from '../../contenders/join.js';
import type { ContenderSpec } from '../../contenders/spec.js';
import type { ZkContenderView } from '../../contenders/zk-view.js';
import { formatDuration } from '../../duration.js';
import { networkJson } from './net.js';
import { table } from './table.js';

function colourState(s: ContenderInfo['state']): string {
  if (s === 'leader') return chalk.green.bold('leader');
  if (s === 'follower') return chalk.cyan(s);
  if (s === 'paused') return chalk.yellow(s);
  if (s === 'dead' || s === 'expired') return chalk.red(s);
  return s;
}

type ZkViews = ReadonlyMap<string, ZkContenderView> | null;

export function contendersJson(
  list: readonly ContenderInfo[],
  net: ContendersNetwork | null = null,
  zookeeper: ZkViews = null,
): unknown {
  return {
    ...(net ? { network: networkJson(net.status) } : {}),
    contenders: list.map((c) => ({
      id: c.id,
      pid: c.pid,
      alive: c.alive,
      recipe: c.recipe,
      workload: c.workload,
      state: c.state,
      znode: c.znode,
      sessionId: c.session ? `0x${c.session}` : null,
      sessionTimeoutMs: c.grantedTimeoutMs,
      sessions: c.sessions.map((x) => `0x${x}`),
      watching: c.watching,
      token: c.token,
      priority: c.priority,
      site: c.site,
      ...(net ? { network: net.members.get(c.id) } : {}),
      ...(zookeeper ? { zookeeper: zookeeper.get(c.id) ?? null } : {}),
    })),
  };
}

/** `state` is what a contender says of itself; `zookeeper` what ZooKeeper says (LEADS: it owns the leading znode). */
export function renderContenders(list: readonly ContenderInfo[], zookeeper: ZkViews = null): string {
  if (list.length === 0) return 'no contenders yet: `zklab contenders spawn 5`';
  const zkCell = (c: ContenderInfo): string => {
    const v = zookeeper?.get(c.id);
    return !v ? '-' : v.leads ? chalk.green.bold('LEADS') : v.znodes.length > 0 ? 'in line' : 'no znode';
  };
  return table(
    ['id', 'pid', 'alive', 'recipe', 'state', ...(zookeeper ? ['zookeeper'] : []), 'znode', 'session', 'watching'],
    list.map((c) => [
      c.id,
      c.pid === null ? '-' : String(c.pid),
      c.alive ? 'yes' : chalk.red('no'),
      c.workload === 'scheduler' ? 'scheduler worker' : c.workload === 'lock' ? `lock holder (${c.recipe})` : c.recipe,
      colourState(c.state),
      ...(zookeeper ? [zkCell(c)] : []),
      c.znode ?? zookeeper?.get(c.id)?.znodes[0] ?? '-',
      c.session ? `0x${c.session}` : '-',
      c.watching ?? '-',
    ]),
  );
}

/** The session timeout as the servers granted it, and what was asked when they granted another. */
function sessionWords(askedMs: number, spawned: readonly ContenderInfo[]): string {
  const granted = [...new Set(spawned.flatMap((c) => (c.grantedTimeoutMs === null ? [] : [c.grantedTimeoutMs])))];
  if (granted.length === 0 || (granted.length === 1 && granted[0] === askedMs)) {
    return `session timeout ${formatDuration(askedMs)}`;
  }
  const got = granted.map((ms) => formatDuration(ms)).join(' or ');
  return `session timeout ${got} as the servers granted it, ${formatDuration(askedMs)} asked: they grant 2 to 20 ticks`;
}

/** What `contenders spawn` prints: what was started, how, what to try next, and the table. */
export function renderSpawned(req: ContenderSpec, r: SpawnResult): string {
  const ids = r.spawned.map((c) => c.id).join(', ');
  const session = sessionWords(req.sessionTimeoutMs, r.spawned);
  if (req.scheduler) {
    const s = req.scheduler;
    const how = `scheduler workers at ${s.root}, ${s.strategy}, status TTL ${formatDuration(s.statusTtlMs)}, ${session}`;
    return `spawned ${ids} (${how})\nnext: \`zklab jobs submit 10\`, \`zklab jobs status --watch\`\n${renderContenders(r.all)}`;
  }
  if (req.lock) {
    const l = req.lock;
    const queue =
      req.recipe === 'herd' ? 'herd: every waiter watches the lock' : 'a queue: each waits on the one before';
    const phases = `hold ${formatDuration(l.holdMs)}, think ${formatDuration(l.thinkMs)}, fencing ${l.fencing ? 'on' : 'off'}`;
    const next = `next: \`zklab inspect --path ${req.path}\`, \`zklab pause leader\``;
    return `spawned ${ids} (lock holders on ${req.path}, ${queue}, ${phases}, ${session})\n${next}\n${renderContenders(r.all)}`;
  }
  return `spawned ${ids} (${req.recipe}, ${session})\n${renderContenders(r.all)}`;
}

/** A spawn still waiting: "waiting for c2, c3 to join (c1 joined; 25s left)". */
export function renderJoinProgress(p: JoinProgress): string {
  const joined = p.joined.length > 0 ? `${p.joined.join(', ')} joined; ` : '';
  return `waiting for ${p.waiting.join(', ')} to join (${joined}${formatDuration(p.leftMs, 0)} left)`;
}
