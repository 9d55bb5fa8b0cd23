import { UsageError } from '../errors.js';
import { recordLabEvent } from '../lab/event-log.js';
import type { LabPaths } from '../lab/paths.js';
import { isOurs, isStopped, signal, signalStop, stopProcesses } from '../lab/procs.js';
import { directConnectString, requireState, type ContenderRecord, type LabState } from '../lab/state.js';
import { readLeader } from '../recipes/leadership.js';
import { withObserver } from '../zk/observer.js';
import { describeContender, resolveContender } from './service.js';

export interface LeaderFact {
  readonly contender: ContenderRecord;
  readonly znode: string;
  readonly owner: string;
}

/** The leading contender by ZooKeeper's own state: the owner session of the leading znode, mapped to a contender. */
export async function resolveLeader(paths: LabPaths, state: LabState = requireState(paths)): Promise<LeaderFact> {
  const live = state.contenders.filter((c) => isOurs(c.pid, paths.markers));
  if (live.length === 0) throw new UsageError('no contender is running in this lab', 'spawn some with `zklab contenders spawn 5`');
  const paths_ = [...new Set(live.map((c) => c.path))];
  const connect = directConnectString(state);
  const leading = await withObserver(connect, async (zk) => Promise.all(paths_.map((p) => readLeader(zk, p)))).catch((e: Error) => {
    throw new UsageError(`cannot ask the ensemble who leads: ${e.message}`, 'check `zklab ensemble status`');
  });
  for (const lead of leading) {
    if (!lead) continue;
    const owner = state.contenders.find((c) => describeContender(paths, c).sessions.includes(lead.owner));
    if (owner) return { contender: owner, znode: lead.znode, owner: lead.owner };
    throw new UsageError(`the leading znode ${lead.znode} belongs to session 0x${lead.owner}, which no zklab contender owns`, 'another client leads; kill a contender by name instead');
  }
  throw new UsageError('nobody leads right now', 'wait for an election (`zklab contenders list`), or spawn contenders');
}

function target(paths: LabPaths, state: LabState, who: string): Promise<ContenderRecord> | ContenderRecord {
  return who === 'leader' ? resolveLeader(paths, state).then((l) => l.contender) : resolveContender(state, who);
}

function requireRunning(paths: LabPaths, c: ContenderRecord): number {
  if (!isOurs(c.pid, paths.markers)) throw new UsageError(`contender ${c.id} is not running`, 'see `zklab contenders list`');
  return c.pid!;
}

export const contenderFaults = {
  /** SIGKILL: the session lingers until it expires. SIGTERM: the contender closes its session (immediate hand-over). */
  async kill(paths: LabPaths, who: string, sig: 'SIGKILL' | 'SIGTERM'): Promise<{ id: string; pid: number }> {
    const state = requireState(paths);
    const c = await target(paths, state, who);
    const pid = requireRunning(paths, c);
    recordLabEvent(paths, 'contender-killed', { contender: c.id, pid, signal: sig });
    await stopProcesses([pid], sig, 5000);
    return { id: c.id, pid };
  },

  /** A pause returns once the process is stopped (SIGSTOP lands asynchronously); `opts.signal` interrupts that wait. */
  async pause(paths: LabPaths, who: string, pause: boolean, opts: { signal?: AbortSignal } = {}): Promise<{ id: string; pid: number }> {
    const state = requireState(paths);
    const c = await target(paths, state, who);
    const pid = requireRunning(paths, c);
    if (pause === isStopped(pid)) throw new UsageError(`contender ${c.id} is ${pause ? 'already paused' : 'not paused'}`, pause ? `resume it with \`zklab resume contender ${c.id}\`` : 'nothing to do');
    // The signal goes out now; the event is recorded as it is sent, before the wait for it to land.
    const stopped = pause ? signalStop(pid, 2000, opts.signal) : undefined;
    if (!pause) signal(pid, 'SIGCONT');
    recordLabEvent(paths, pause ? 'contender-paused' : 'contender-resumed', { contender: c.id, pid });
    await stopped;
    return { id: c.id, pid };
  },
};
