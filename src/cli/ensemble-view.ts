import chalk from 'chalk';
import type { EnsembleStatus, ServerStatus } from '../ensemble/service.js';
import { loopbackConnectString } from '../lab/state.js';
import { table } from './table.js';
import { networkJson, networkLines } from './commands/net-view.js';

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
  const summary = status.quorum
    ? chalk.green(`quorum: ${status.serving}/${status.servers.length} serving, ${status.leader} leads`)
    : chalk.red(`no quorum: ${status.serving}/${status.servers.length} serving`);
  return [
    table(['server', 'client port', 'mode', 'pid', 'zxid', 'conns', 'znodes'], rows),
    summary,
    ...networkLines(status.network),
  ].join('\n');
}

export function connectString(status: EnsembleStatus): string {
  return loopbackConnectString(status.servers);
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
