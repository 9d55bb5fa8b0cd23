import { formatDuration } from '../duration.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { ProcessError } from '../errors.js';
import type { LabPaths } from '../lab/paths.js';
import { isOurs } from '../lab/node/procs.js';
import { type LabState, nodeHost, type ServerRecord } from '../lab/state.js';
import { leadsQuorum, probeSrvr, type ServerMode, type Srvr } from '../zk/four-letter.js';
import { tailFile } from '../lab/fs.js';
import { listed } from '../text.js';

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

/** Whether a server's process runs now, as a quorum counts it: a paused one does not vote. */
export type Running = 'running' | 'paused' | 'down';

/**
 * Why restarting `targets` cannot bring a quorum back, or null. The voters that run after it (those restarted, and
 * those running now) must be a majority of the voters; otherwise the restarted servers would wait for a quorum that
 * cannot form, and the ones that are down or paused are what to name.
 */
export function restartRefusal(
  servers: readonly Pick<ServerRecord, 'name' | 'role'>[],
  targets: readonly Pick<ServerRecord, 'name'>[],
  running: (name: string) => Running,
): string | null {
  const voters = servers.filter((s) => s.role !== 'observer');
  const restarted = new Set(targets.map((t) => t.name));
  const out = voters.filter((s) => !restarted.has(s.name) && running(s.name) !== 'running');
  const need = Math.floor(voters.length / 2) + 1;
  if (voters.length - out.length >= need) return null;
  const states = (['down', 'paused'] as const)
    .map((state) => ({ state, names: out.filter((s) => running(s.name) === state).map((s) => s.name) }))
    .filter((g) => g.names.length > 0)
    .map(({ state, names }) => `${listed(names)} ${names.length === 1 ? 'is' : 'are'} ${state}`);
  return (
    `restarting ${listed([...restarted])} cannot form a quorum: ${states.join(', ')} ` +
    `(a quorum is ${need} of the ${voters.length} voters)`
  );
}
