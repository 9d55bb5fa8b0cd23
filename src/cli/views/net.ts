import { formatDuration } from '../../duration.js';
import chalk from 'chalk';
import type { NetListing } from '../../net/service.js';
import type { NetworkStatus } from '../../net/status.js';
import { table } from './table.js';

/** Lines to add under a status table: the active faults, and a dead link daemon. Empty when all is well. */
export function networkLines(net: NetworkStatus): string[] {
  const lines: string[] = [];
  if (!net.daemon.running && net.daemon.needed)
    lines.push(
      chalk.red('network: the link daemon is not running, every link is down; `zklab ensemble up` repairs it'),
    );
  if (net.faults.length > 0) lines.push(chalk.yellow(`network faults: ${net.faults.join('; ')}`));
  return lines;
}

/** Network fields for the JSON of `ensemble status` and `contenders list`. */
export function networkJson(net: NetworkStatus): unknown {
  return {
    daemon: net.daemon,
    rules: net.rules,
    delays: net.delays,
    faults: net.faults,
    nodeNet: net.nodeNet,
    hosts: net.hosts,
  };
}

function bytes(n: number): string {
  return n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1)} KiB`;
}

export function renderListing(l: NetListing): string {
  const out = [
    l.nodeNet
      ? `node network: ${l.nodeNet.subnet} on bridge ${l.nodeNet.bridge}, faults in the kernel (nftables)`
      : l.hosts
        ? `on hosts ${l.hosts.join(', ')}: faults in each host's kernel (nftables, over SSH)`
        : l.daemon.running
          ? `link daemon: running (pid ${l.daemon.pid}), ${l.linkCount} links`
          : chalk.red('link daemon: not running; `zklab ensemble up` repairs it'),
  ];
  if (l.faults.length === 0)
    out.push(l.nodeNet || l.hosts ? 'no partitions, delays or losses' : 'no partitions or delays');
  else out.push('active:', ...l.faults.map((f) => `  ${f}`));
  if (l.faultyLinks.length > 0) {
    out.push(
      '',
      table(
        ['link', 'port', 'fault', 'delay/dir', 'open', 'held'],
        l.faultyLinks.map((k) => [
          k.id,
          String(k.port),
          k.fault.mode,
          k.fault.delayMs > 0 || k.fault.jitterMs > 0
            ? `${formatDuration(k.fault.delayMs)}+${formatDuration(k.fault.jitterMs)}`
            : '-',
          String(k.stats.open),
          bytes(k.stats.heldBytes),
        ]),
      ),
    );
  }
  return out.join('\n');
}

export function listingJson(l: NetListing): unknown {
  return {
    ...(networkJson(l) as object),
    links: l.linkCount,
    faultyLinks: l.faultyLinks.map((k) => ({
      id: k.id,
      from: k.from,
      to: k.to,
      kind: k.kind,
      port: k.port,
      fault: k.fault,
      stats: k.stats,
    })),
  };
}
