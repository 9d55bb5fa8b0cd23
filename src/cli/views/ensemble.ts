import chalk from 'chalk';
import type { DynamicConfig } from '../../ensemble/dynamic-config.js';
import type { EnsembleConfig, MembershipResult } from '../../ensemble/membership.js';
import type { DownResult, EnsembleStatus, ServerStatus, UpResult } from '../../ensemble/service.js';
import { formatDuration } from '../../duration.js';
import { serversConnectString } from '../../lab/state.js';
import { table } from './table.js';
import { networkJson, networkLines } from './net.js';
import { isServing } from '../../ensemble/quorum.js';

function colourMode(mode: ServerStatus['mode']): string {
  switch (mode) {
    case 'leader':
    case 'standalone':
      return chalk.green.bold(mode);
    case 'follower':
    case 'observer':
      return chalk.cyan(mode);
    case 'paused':
      return chalk.yellow(mode);
    default:
      return chalk.red(mode);
  }
}

export function renderStatus(status: EnsembleStatus): string {
  const rows = status.servers.map((s) => [
    s.name,
    String(s.clientPort),
    colourMode(s.mode),
    s.pid === null ? '-' : String(s.pid),
    s.zxid ?? '-',
    s.connections === null ? '-' : String(s.connections),
    s.znodes === null ? '-' : String(s.znodes),
  ]);
  const voters = status.servers.filter((s) => s.role !== 'observer');
  const observers = status.servers.filter((s) => s.role === 'observer');
  const up = (list: readonly ServerStatus[]) => list.filter((s) => s.mode !== 'paused' && isServing(s.mode)).length;
  const watching =
    observers.length === 0 ? '' : `; observers ${up(observers)}/${observers.length} serving (they do not vote)`;
  const summary = status.quorum
    ? chalk.green(`quorum: ${up(voters)}/${voters.length} voters serving, ${status.leader} leads${watching}`)
    : chalk.red(`no quorum: ${up(voters)}/${voters.length} voters serving${watching}`);
  return [
    table(['server', 'client port', 'mode', 'pid', 'zxid', 'conns', 'znodes'], rows),
    summary,
    ...networkLines(status.network),
  ].join('\n');
}

export function connectString(status: EnsembleStatus): string {
  return serversConnectString(status.servers);
}

/** JSON for scripts: stable field names, nulls rather than missing fields. */
export function statusJson(status: EnsembleStatus): unknown {
  return {
    lab: status.lab,
    tickMs: status.tickMs,
    quorum: status.quorum,
    leader: status.leader,
    connect: connectString(status),
    servers: status.servers.map((s) => ({
      id: s.id,
      name: s.name,
      clientPort: s.clientPort,
      role: s.role,
      mode: s.mode,
      pid: s.pid,
      alive: s.alive,
      paused: s.paused,
      zxid: s.zxid,
      connections: s.connections,
      znodes: s.znodes,
    })),
    network: networkJson(status.network),
  };
}

const NEXT_AFTER_UP =
  'next: `zklab contenders spawn 5`, `zklab ensemble status`, `zklab kill zk-leader`, `zklab ensemble down`';
const NEXT_WITH_CONTENDERS = (n: number) =>
  `${n} contender${n === 1 ? '' : 's'} running: \`zklab contenders list\`, \`zklab inspect\`, \`zklab kill leader\``;

/** What `ensemble up` prints: what happened and how long it took, the status table, the connect string. */
export function renderUp(result: UpResult, lab: string, tookMs: number): string {
  const took = formatDuration(tookMs);
  const headline = {
    started: `ensemble up in ${took} (lab ${lab})`,
    repaired: `ensemble repaired in ${took}`,
    'already-up': 'the ensemble is already up',
  }[result.outcome];
  const running = result.status.contendersRunning;
  const next = running > 0 ? NEXT_WITH_CONTENDERS(running) : NEXT_AFTER_UP;
  return `${headline}\n${renderStatus(result.status)}\n\nconnect string: ${connectString(result.status)}\n${next}`;
}

export function renderDown(r: DownResult, lab: string): string {
  if (r.stopped === 0) return `nothing was running in ${lab}${r.purged ? '; purged' : ''}`;
  return `stopped ${r.stopped} process${r.stopped === 1 ? '' : 'es'}${r.purged ? ' and purged the lab' : ''}`;
}

export function renderRestart(status: EnsembleStatus & { unavailableMs: number }, target: string): string {
  const down = formatDuration(status.unavailableMs);
  const what = target === 'all' ? 'the ensemble' : target;
  return `${renderStatus(status)}\n${what} was unavailable for ${down} (SIGKILL until serving again)`;
}

/** A dynamic configuration as ZooKeeper writes it: one `server.N=…` line per member. */
export function renderConfig(c: DynamicConfig): string {
  return c.members
    .map((m) => `server.${m.id}=${m.host}:${m.quorumPort}:${m.electionPort}:${m.role}${m.client ? `;${m.client}` : ''}`)
    .join('\n');
}

export function renderMembership(r: MembershipResult, change: 'added' | 'removed', stepTimes: string): string {
  const what = change === 'added' ? `joined as ${r.role}` : 'left and stopped';
  return `${r.server} ${what}: configuration version ${r.config.version}\n${renderConfig(r.config)}\n${stepTimes}`;
}

/** `ensemble config`: the configuration every server agrees on, then what each one said. */
export function renderConfigReport(r: EnsembleConfig): string {
  if (r.standalone) {
    return (
      `${r.servers[0]?.server ?? 'the server'} runs standalone: a one-server lab has no dynamic configuration ` +
      '(`zklab ensemble up --servers 3` makes one that has)'
    );
  }
  const lines = r.servers.map(
    (s) =>
      `  ${s.server}: ${s.config ? `version ${s.config.version}, ${s.config.members.length} members` : `no answer (${s.error})`}`,
  );
  const head = r.config
    ? `configuration version ${r.config.version} (every answering server agrees)\n${renderConfig(r.config)}`
    : 'the servers disagree, or none answered:';
  return `${head}\n${lines.join('\n')}`;
}
