import type { LabEventOf } from '../../lab/events.js';
import { targetKind } from '../targets.js';
import { windowRule } from './kind.js';

/**
 * The `partition` line, which every kind that cuts links writes (isolate, split, the one-way cut), read as a fault
 * window: one rule, which each of those kinds lists. It lasts until a heal of partitions that lifts it.
 */

type PartitionLine = LabEventOf<'partition'>;

const isServer = (n: string) => targetKind(n) === 'server';

/**
 * The names a partition cuts off: its target; both ends of a one-way cut (a contender that cannot hear the servers
 * is cut off as surely as one they cannot hear); for a split, the members of groups without a server majority.
 */
export function partitionTargets(ev: PartitionLine): string[] {
  const names = [ev.target, ev.peer].filter((n): n is string => n !== undefined);
  const groups = ev.groups ?? [];
  const totalServers = groups.flat().filter(isServer).length;
  for (const group of groups) {
    if (group.filter(isServer).length * 2 <= totalServers) names.push(...group);
  }
  return [...new Set(names)];
}

export const PARTITION_WINDOW = windowRule<PartitionLine>({
  event: 'partition',
  colour: '#1f77b4',
  label: (e) => e.description,
  hits: partitionTargets,
  // A heal of everything, or of a member it cut off; the clearing of delays (a heal of kind delay) leaves it.
  endedBy: (ev, e) =>
    e.event === 'heal' &&
    e.kind === 'partition' &&
    (e.target === undefined || e.target === 'all' || partitionTargets(ev).includes(e.target)),
});
