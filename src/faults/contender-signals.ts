import { UsageError } from '../errors.js';
import { recordLabEvent } from '../lab/event-log.js';
import type { LabPaths } from '../lab/paths.js';
import { isOurs, isStopped, signal, signalStop, stopProcesses } from '../lab/procs.js';
import { requireState, type ContenderRecord } from '../lab/state.js';
import { resolveContender } from '../contenders/service.js';

function requireRunning(paths: LabPaths, c: ContenderRecord): number {
  if (!isOurs(c.pid, paths.markers))
    throw new UsageError(`contender ${c.id} is not running`, 'see `zklab contenders list`');
  return c.pid!;
}

/** Signals to one contender process, named by id (aliases such as `leader` are resolved in targets.ts). */
export const contenderSignals = {
  /** SIGKILL: the session lingers until it expires. SIGTERM: the contender closes its session (immediate hand-over). */
  async kill(paths: LabPaths, id: string, sig: 'SIGKILL' | 'SIGTERM'): Promise<{ id: string; pid: number }> {
    const state = requireState(paths);
    const c = resolveContender(state, id);
    const pid = requireRunning(paths, c);
    recordLabEvent(paths, 'contender-killed', { contender: c.id, pid, signal: sig });
    await stopProcesses([pid], sig, 5000);
    return { id: c.id, pid };
  },

  /** A pause returns once the process is stopped (SIGSTOP lands asynchronously); `opts.signal` interrupts that wait. */
  async pause(
    paths: LabPaths,
    id: string,
    pause: boolean,
    opts: { signal?: AbortSignal } = {},
  ): Promise<{ id: string; pid: number }> {
    const state = requireState(paths);
    const c = resolveContender(state, id);
    const pid = requireRunning(paths, c);
    if (pause === isStopped(pid))
      throw new UsageError(
        `contender ${c.id} is ${pause ? 'already paused' : 'not paused'}`,
        pause ? `resume it with \`zklab resume contender ${c.id}\`` : 'nothing to do',
      );
    // The signal goes out now; the event is recorded as it is sent, before the wait for it to land.
    const stopped = pause ? signalStop(pid, 2000, opts.signal) : undefined;
    if (!pause) signal(pid, 'SIGCONT');
    recordLabEvent(paths, pause ? 'contender-paused' : 'contender-resumed', { contender: c.id, pid });
    await stopped;
    return { id: c.id, pid };
  },
};
