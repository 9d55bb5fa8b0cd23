import chalk from 'chalk';
import { formatDuration } from '../../duration.js';
import type { LabListing } from '../../ensemble/labs.js';
import { fitWidth, plural, truncateMiddle } from '../../text.js';
import { table } from './table.js';

/** Who owns it: the owning process (a drill, the demo, a test), or nobody for a long-lived lab. */
function owner(l: LabListing): string {
  if (!l.owner) return l.kind;
  return `pid ${l.owner.pid}${l.owner.alive ? '' : chalk.red(' (gone)')}`;
}

const count = (c: { running: number; total: number }): string => (c.total === 0 ? '-' : `${c.running}/${c.total}`);

/** `zklab labs`: one row a lab, within 100 columns (paths and commands shortened; `--wide` for everything). */
export function renderLabs(labs: readonly LabListing[], opts: { readonly wide?: boolean } = {}): string {
  if (labs.length === 0) return 'no labs on this machine (`zklab ensemble up` makes one)';
  const short = (s: string, max: number) => (opts.wide ? s : truncateMiddle(s, max));
  const rows = labs.map((l) => [
    short(l.root, 28),
    ...(opts.wide ? [l.kind] : []),
    opts.wide && l.reason ? `${l.status}: ${l.reason}` : l.status,
    owner(l),
    count(l.servers),
    count(l.contenders),
    opts.wide ? l.clientPorts.join(',') || '-' : (l.clientPorts[0]?.toString() ?? '-'),
    formatDuration(l.ageMs, 0),
    // The command's start says what made the lab (`drill run …`, `test …`): it is the end that gives way.
    opts.wide ? l.command : fitWidth(l.command, 24),
  ]);
  const headers = opts.wide
    ? ['LAB', 'KIND', 'STATUS', 'OWNER', 'SERVERS', 'CONTENDERS', 'CLIENT PORTS', 'AGE', 'MADE BY']
    : ['LAB', 'STATUS', 'OWNER', 'SRV', 'CONT', 'PORT', 'AGE', 'MADE BY'];
  const reasons = opts.wide
    ? []
    : labs.filter((l) => l.reason).map((l) => `${short(l.root, 28)} is ${l.status}: ${l.reason}`);
  const out = [table(headers, rows), ...reasons].join('\n');
  const prunable = labs.filter((l) => l.status === 'orphan' || l.status === 'stale').length;
  return prunable === 0 ? out : `${out}\n${prunable} lab(s) can go: \`zklab labs prune\``;
}

/** `zklab labs down`: per lab, what was stopped, or that nothing of it ran. */
export function renderLabsDown(results: readonly { readonly root: string; readonly stopped: number }[]): string {
  if (results.length === 0) return 'no labs to stop';
  return results
    .map((r) =>
      r.stopped === 0
        ? `nothing to stop in ${r.root}: nothing of it was running`
        : `stopped ${r.root} (${plural(r.stopped, 'process', 'processes')})`,
    )
    .join('\n');
}
