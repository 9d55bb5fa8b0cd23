import { formatDuration } from '../duration.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { ProcessError } from '../errors.js';
import type { LabPaths } from '../lab/paths.js';
import { isOurs } from '../lab/node/procs.js';
import { type LabState, nodeHost, type ServerRecord } from '../lab/state.js';
import { leadsQuorum, probeSrvr, type ServerMode, type Srvr } from '../zk/four-letter.js';
import { tailFile } from '../lab/fs.js';

const SERVING: readonly ServerMode[] = ['leader', 'follower', 'observer', 'standalone'];

/** srvr of one of the lab's servers, where it listens (its node's address on the node network). */
export function probeServer(
  state: Pick<LabState, 'nodeNet'>,
  s: Pick<ServerRecord, 'name' | 'clientPort'>,
  timeoutMs = 1000,
): Promise<Srvr> {
  return probeSrvr(s.clientPort, timeoutMs, nodeHost(state, s.name));
}

export function isServing(mode: ServerMode): boolean {
  return SERVING.includes(mode);
}

export interface QuorumWait {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  readonly onMode?: (server: string, mode: ServerMode) => void;
  readonly pollMs?: number;
}

/**
 * Waits until every listed server answers srvr with a serving mode and exactly one of the whole ensemble leads
 * (or the single server is standalone). Fails fast when a server process exits, naming it and showing its log.
 */
export async function waitForQuorum(
  paths: LabPaths,
  state: Pick<LabState, 'nodeNet'>,
  servers: readonly ServerRecord[],
  opts: QuorumWait,
): Promise<Map<string, ServerMode>> {
  const deadline = Date.now() + opts.timeoutMs;
  const modes = new Map<string, ServerMode>();
  for (;;) {
    opts.signal?.throwIfAborted();
    for (const s of servers) {
      if (!isOurs(s.pid, paths.markers)) {
        throw new ProcessError(
          `${s.name} exited while the ensemble was starting; the end of ${paths.serverLog(s.name)}:\n${tailFile(paths.serverLog(s.name))}`,
          'fix the cause above, then run `zklab ensemble up` again',
        );
      }
    }
    const probes = await Promise.all(servers.map((s) => probeServer(state, s, 400)));
    probes.forEach((p, i) => {
      const name = servers[i]!.name;
      if (modes.get(name) !== p.mode) opts.onMode?.(name, p.mode);
      modes.set(name, p.mode);
    });
    const leaders = probes.filter((p) => leadsQuorum(p.mode)).length;
    if (probes.every((p) => isServing(p.mode)) && leaders === 1) return modes;
    if (Date.now() > deadline) {
      const stuck = servers.filter((s) => !isServing(modes.get(s.name) ?? 'down'));
      const worst = stuck[0] ?? servers[0]!;
      throw new ProcessError(
        `the ensemble did not form a quorum within ${formatDuration(opts.timeoutMs)}: ` +
          `${stuck.map((s) => `${s.name} is ${modes.get(s.name)}`).join(', ') || 'no single leader'}; ` +
          `the end of ${paths.serverLog(worst.name)}:\n${tailFile(paths.serverLog(worst.name))}`,
        `see \`zklab logs ${worst.name}\`; everything this command started has been stopped`,
      );
    }
    await sleep(opts.pollMs ?? 25, undefined, { signal: opts.signal });
  }
}
