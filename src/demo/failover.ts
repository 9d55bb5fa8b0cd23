import { formatDuration } from '../duration.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { readLabLogs } from '../lab/event-log.js';
import type { ContenderEvent } from '../lab/events.js';
import { isLabLine, type LabLine } from '../faults/kinds/registry.js';
import { resolveLeader } from '../faults/leader.js';
import { ProcessError } from '../errors.js';
import type { LabPaths } from '../lab/paths.js';

export interface Failover {
  /** The killed leader and when the lab recorded the kill (just before the signal). */
  readonly killed: string;
  readonly killedAt: number;
  /** The first contender to log `leader` after the kill. */
  readonly leader: string;
  readonly leaderAt: number;
  readonly token: number | null;
  /** ZooKeeper's own view afterwards: the owner of the leading znode. */
  readonly confirmedBy: { readonly contender: string; readonly znode: string; readonly session: string };
}

/** Every event of the lab's contenders and of the lab itself, in time order. */
export function labHistory(paths: LabPaths): (ContenderEvent | LabLine)[] {
  const { contender, lab } = readLabLogs(paths, [], isLabLine);
  const all: (ContenderEvent | LabLine)[] = [...lab, ...contender];
  return all.sort((a, b) => a.t - b.t);
}

/**
 * Waits for another contender's `leader` event after the kill of `killed` (the lab's `contender-killed` event is
 * the start), then asks ZooKeeper who owns the leading znode; they must agree. `onEvent` sees every event from the
 * kill on as it appears.
 */
export async function awaitFailover(
  paths: LabPaths,
  killed: string,
  opts: {
    readonly timeoutMs: number;
    readonly signal?: AbortSignal;
    readonly onEvent?: (e: ContenderEvent | LabLine) => void;
  },
): Promise<Failover> {
  const deadline = Date.now() + opts.timeoutMs;
  let shown = 0;
  for (;;) {
    const events = labHistory(paths);
    const kill = events.find((e): e is LabLine => e.event === 'contender-killed' && e.contender === killed);
    const after = kill ? events.filter((e) => e.t >= kill.t && e.event !== 'act') : [];
    for (const e of after.slice(shown)) opts.onEvent?.(e);
    shown = after.length;
    const claim = after.find((e): e is ContenderEvent => 'id' in e && e.event === 'leader' && e.id !== killed);
    if (kill && claim) {
      const lead = await resolveLeader(paths);
      if (lead.contender.id !== claim.id) {
        throw new ProcessError(
          `${claim.id} claimed leadership, but ZooKeeper says ${lead.contender.id} owns the leading znode ${lead.znode}`,
        );
      }
      return {
        killed,
        killedAt: kill.t,
        leader: claim.id,
        leaderAt: claim.t,
        token: claim.event === 'leader' ? claim.token : null,
        confirmedBy: { contender: lead.contender.id, znode: lead.znode, session: lead.owner },
      };
    }
    if (Date.now() > deadline) {
      throw new ProcessError(
        `no contender took over within ${formatDuration(opts.timeoutMs)} of killing ${killed}`,
        'the demo cleans its lab up; to look closer, do it by hand: ' +
          '`zklab ensemble up`, `zklab contenders spawn 5`, `zklab kill leader`, `zklab inspect`',
      );
    }
    await sleep(50, undefined, { signal: opts.signal });
  }
}
