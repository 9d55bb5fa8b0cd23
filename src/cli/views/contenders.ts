import chalk from 'chalk';
import type { ContenderInfo, ContendersNetwork, SpawnResult } from '../../contenders/service.js';
import type { JoinProgress } from '../../contenders/join.js';
import type { ContenderSpec } from '../../contenders/spec.js';
import type { ZkContenderView } from '../../contenders/zk-view.js';
import { formatDuration } from '../../duration.js';
import { plural, truncateMiddle, wrapWords } from '../../text.js';
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
      processes: c.node,
      probe: c.probed,
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

/** How a table of contenders is drawn: every contender or the running ones, names whole or shortened. */
export interface TableOptions {
  /** Full znode names, session ids and recipes, and the alive column (wider than 100 columns). */
  readonly wide?: boolean;
  /** Dead and stopped contenders too; otherwise a line counts them. */
  readonly all?: boolean;
}

/** What a contender runs, in a few words: `lock/queue` for lock holders on the predecessor recipe. */
function runsWhat(c: ContenderInfo, wide: boolean): string {
  if (c.workload === 'scheduler') return wide ? 'scheduler worker' : 'scheduler';
  if (c.workload === 'lock')
    return wide ? `lock holder (${c.recipe})` : c.recipe === 'herd' ? 'lock/herd' : 'lock/queue';
  return c.recipe === 'exec' ? 'program' : c.recipe;
}

/** Gone: its program has ended and its node holds nothing more (a program's daemon may outlive it). */
const gone = (c: ContenderInfo) => !c.alive && c.node === 0;

/** What its probe says now: acts (as the leader), no, ? (unknown), - (no probe, or nothing said yet). */
function probeCell(c: ContenderInfo): string {
  if (!c.probed) return '-';
  if (c.probed.leads === null) return chalk.yellow('?');
  return c.probed.leads ? chalk.green.bold('acts') : 'no';
}

/** Every pair of contenders whose probes say both act as the leader now. */
export function actingPairs(list: readonly ContenderInfo[]): [string, string][] {
  const acting = list.filter((c) => c.probed?.leads === true).map((c) => c.id);
  return acting.flatMap((a, i) => acting.slice(i + 1).map((b): [string, string] => [a, b]));
}

/** The line under a table when probes say two nodes act as the leader at once. */
export function actingPairsLine(list: readonly ContenderInfo[]): string | undefined {
  const pairs = actingPairs(list);
  if (pairs.length === 0) return undefined;
  const named = pairs.map(([a, b]) => `${a} and ${b}`).join(', ');
  return chalk.red.bold(`! split brain: ${named} act as leader at once, by their probes`);
}
/** A znode's own name: the path is the contender's election path, said once by the command that spawned it. */
const nameOf = (znode: string) => znode.slice(znode.lastIndexOf('/') + 1);

/**
 * The contenders as a table that fits 100 columns (znode names and sessions shortened as inspect does; `--wide` for
 * them whole). `state` is what a contender says of itself; `zookeeper` what ZooKeeper says (LEADS: it owns the
 * leading znode).
 */
export function renderContenders(
  list: readonly ContenderInfo[],
  zookeeper: ZkViews = null,
  opts: TableOptions = {},
): string {
  if (list.length === 0) return 'no contenders yet: `zklab contenders spawn 5`';
  const wide = opts.wide ?? false;
  const shown = opts.all ? list : list.filter((c) => !gone(c));
  const hidden = list.length - shown.length;
  const short = (s: string, max: number) => (wide ? s : truncateMiddle(s, max));
  const zkCell = (c: ContenderInfo): string => {
    const v = zookeeper?.get(c.id);
    return !v ? '-' : v.leads ? chalk.green.bold('LEADS') : v.znodes.length > 0 ? 'in line' : 'no znode';
  };
  const probes = list.some((c) => c.probed !== null);
  const rows = shown.map((c) => [
    c.id,
    c.pid === null ? '-' : String(c.pid),
    ...(wide ? [c.alive ? 'yes' : chalk.red('no')] : []),
    c.node === 0 ? '-' : String(c.node),
    runsWhat(c, wide),
    colourState(c.state),
    ...(probes ? [probeCell(c)] : []),
    ...(zookeeper ? [zkCell(c)] : []),
    short(nameOf(c.znode ?? zookeeper?.get(c.id)?.znodes[0] ?? '-'), 12),
    c.session ? short(`0x${c.session}`, 12) : '-',
    short(nameOf(c.watching ?? '-'), 12),
  ]);
  const headers = [
    'id',
    'pid',
    ...(wide ? ['alive'] : []),
    'procs',
    'runs',
    'state',
    ...(probes ? ['probe'] : []),
    ...(zookeeper ? ['zookeeper'] : []),
  ];
  const lines = [shown.length > 0 ? table([...headers, 'znode', 'session', 'watching'], rows) : 'none running'];
  for (const c of shown.filter((x) => !x.alive && x.node > 0)) {
    lines.push(
      `${c.id}'s program is dead, its node holds ${plural(c.node, 'process', 'processes')} still: ` +
        `\`zklab contenders stop ${c.id}\` ends them`,
    );
  }
  const split = actingPairsLine(shown);
  if (split) lines.push(split);
  if (hidden > 0) {
    lines.push(`${plural(hidden, 'dead or stopped contender')} not shown: \`zklab contenders list --all\``);
  }
  return lines.join('\n');
}

/** The session timeout as the servers granted it, and what was asked when they granted another, and why. */
function sessionWords(askedMs: number, r: SpawnResult): string {
  const granted = [...new Set(r.spawned.flatMap((c) => (c.grantedTimeoutMs === null ? [] : [c.grantedTimeoutMs])))];
  if (granted.length === 0 || (granted.length === 1 && granted[0] === askedMs)) {
    return `session timeout ${formatDuration(askedMs)}`;
  }
  const got = granted.map((ms) => formatDuration(ms)).join(' or ');
  const range = r.grants
    ? `the lab's servers grant ${formatDuration(r.grants.minMs)} to ${formatDuration(r.grants.maxMs)}`
    : "the servers grant what their min and maxSessionTimeout allow (ZooKeeper's default: 2 to 20 ticks)";
  return `session timeout ${got} as the servers granted it, ${formatDuration(askedMs)} asked: ${range}`;
}

/** The contenders a spawn started, and a count of the others that run. */
function spawnedTable(r: SpawnResult): string {
  const others = r.all.filter((c) => c.alive && !r.spawned.some((s) => s.id === c.id)).length;
  const more = others > 0 ? `\n${plural(others, 'other contender')} running: \`zklab contenders list\`` : '';
  return renderContenders(r.spawned) + more;
}

/** What `contenders spawn` prints: what was started, how, what to try next, and the table. */
export function renderSpawned(req: ContenderSpec, r: SpawnResult): string {
  const ids = r.spawned.map((c) => c.id).join(', ');
  const session = sessionWords(req.sessionTimeoutMs, r);
  if (req.scheduler) {
    const s = req.scheduler;
    const how = `scheduler workers at ${s.root}, ${s.strategy}, status TTL ${formatDuration(s.statusTtlMs)}, ${session}`;
    const next = 'next: `zklab jobs submit 10`, `zklab jobs status --watch`';
    return `${wrapWords(`spawned ${ids} (${how})`, 100, '  ')}\n${next}\n${spawnedTable(r)}`;
  }
  if (req.lock) {
    const l = req.lock;
    const queue =
      req.recipe === 'herd' ? 'herd: every waiter watches the lock' : 'a queue: each waits on the one before';
    const phases = `hold ${formatDuration(l.holdMs)}, think ${formatDuration(l.thinkMs)}, fencing ${l.fencing ? 'on' : 'off'}`;
    const next = `next: \`zklab inspect --path ${req.path}\`, \`zklab pause leader\``;
    const head = wrapWords(`spawned ${ids} (lock holders on ${req.path}, ${queue}, ${phases}, ${session})`, 100, '  ');
    return `${head}\n${next}\n${spawnedTable(r)}`;
  }
  return `${wrapWords(`spawned ${ids} (${req.recipe}, ${session})`, 100, '  ')}\n${spawnedTable(r)}`;
}

/** A spawn still waiting: "waiting for c2, c3 to join (c1 joined; 25s left)". */
export function renderJoinProgress(p: JoinProgress): string {
  const joined = p.joined.length > 0 ? `${p.joined.join(', ')} joined; ` : '';
  return `waiting for ${p.waiting.join(', ')} to join (${joined}${formatDuration(p.leftMs, 0)} left)`;
}
