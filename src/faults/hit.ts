import { plural } from '../text.js';
import type { Resolved } from './targets.js';

/** Whom a fault on a process hit: the member, the pid it signalled, and how many processes of its node it reached. */
export interface Hit {
  readonly target: Resolved;
  /** The program's pid, when it was alive to be signalled: a contender's program may have died while its node lives. */
  readonly pid?: number;
  /** The processes of the member's node it reached (the program's among them), where it acted on the node. */
  readonly processes?: number;
}

/**
 * Whom a fault hit, as a line says it, never with a pid that was not alive: `c2 (pid 412)`, `c2 (pid 412) and 2
 * other processes of its node`, `c2's node, 3 processes (its program was not running)`.
 */
export function hitWords(hit: Hit): string {
  const { name } = hit.target;
  const processes = hit.processes ?? 0;
  if (hit.pid === undefined)
    return `${name}'s node, ${plural(processes, 'process', 'processes')} (its program was not running)`;
  const others = processes - 1;
  return `${name} (pid ${hit.pid})${others > 0 ? ` and ${plural(others, 'other process', 'other processes')} of its node` : ''}`;
}
