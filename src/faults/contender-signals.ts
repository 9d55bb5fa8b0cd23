import { UsageError } from '../errors.js';
import { recordLabEvent } from '../lab/event-log.js';
import { isPaused, labNode } from '../lab/nodes.js';
import type { LabPaths } from '../lab/paths.js';
import { isOurs, signal, signalStop, stopProcesses, waitForExit } from '../lab/node/procs.js';
import { requireState, type ContenderRecord, type LabState } from '../lab/state.js';
import { resolveContender } from '../contenders/service.js';
import type { FaultScope } from './scope.js';

/** The contender's program (its supervisor, for a program run by --exec) lives. */
function mainAlive(paths: LabPaths, c: ContenderRecord): boolean {
  return isOurs(c.pid, paths.markers);
}

// Loaded for a lab on hosts alone: its SSH channel (execa) costs every other command ~70 ms of start-up.
const remote = () => import('../hosts/remote-node.js');

function requireTarget(paths: LabPaths, state: LabState, c: ContenderRecord, scope: FaultScope): void {
  if (state.hosts && scope === 'process')
    throw new UsageError(
      `contender ${c.id} runs on a host, where a fault acts on its whole node`,
      'leave out --scope process (the node scope is the default)',
    );
  if (mainAlive(paths, c)) return;
  if (scope === 'node' && labNode(paths, c.id).pids().length > 0) return;
  throw new UsageError(
    scope === 'process' && labNode(paths, c.id).pids().length > 0
      ? `contender ${c.id}'s program is not running (its node still holds processes)`
      : `contender ${c.id} is not running`,
    scope === 'process' ? `end the rest of its node: \`zklab kill contender ${c.id}\`` : 'see `zklab contenders list`',
  );
}

/** Paused: its node frozen, or its program stopped. */
export function contenderPaused(paths: LabPaths, c: ContenderRecord): boolean {
  return labNode(paths, c.id).frozen() || (mainAlive(paths, c) && isPaused(c.pid!));
}

/** Signals to one contender, named by id (aliases such as `leader` are resolved in targets.ts). */
export const contenderSignals = {
  /**
   * SIGKILL: the session lingers until it expires. SIGTERM: the program closes its session (immediate hand-over).
   * With the node scope, whatever else the node holds is killed too (after the program's grace, for TERM).
   */
  async kill(
    paths: LabPaths,
    id: string,
    sig: 'SIGKILL' | 'SIGTERM',
    scope: FaultScope = 'node',
  ): Promise<{ id: string; pid?: number; processes: number; left: number }> {
    const state = requireState(paths);
    const c = resolveContender(state, id);
    requireTarget(paths, state, c, scope);
    const node = labNode(paths, c.id, state);
    const pid = c.pid ?? 0;
    // A program that died already (its node living on) or a pid that is no longer ours is not what was killed.
    const alive = mainAlive(paths, c);
    const before = node.pids().length;
    recordLabEvent(paths, 'contender-killed', { contender: c.id, pid, signal: sig, scope });
    if (state.hosts) {
      // On its host: the signal to its group there; its handle here ends when the group is empty.
      const on = await (await remote()).signalRemoteNode(paths, state, c.id, sig === 'SIGTERM' ? 'term' : 'kill');
      await waitForExit([pid], sig === 'SIGTERM' ? 10_000 : 5000);
      await node.kill();
      await node.remove(0);
      return { id: c.id, ...(alive ? { pid } : {}), processes: on.length, left: 0 };
    }
    if (sig === 'SIGKILL' && scope === 'node') {
      await node.kill();
    } else {
      // A frozen program cannot act on SIGTERM (and SIGCONT does not thaw a control group).
      if (sig === 'SIGTERM') node.thaw();
      if (alive) await stopProcesses([pid], sig, 5000);
      if (scope === 'node') await node.kill();
    }
    // One try: a group a killed process still holds goes with the lab (the fault does not wait for it).
    if (scope === 'node') await node.remove(0);
    const left = node.pids().length;
    const processes = Math.max(before - left, alive ? 1 : 0);
    return { id: c.id, ...(alive ? { pid } : {}), processes, left };
  },

  /** A pause returns once the node (or the program) is stopped; `opts.signal` interrupts that wait. */
  async pause(
    paths: LabPaths,
    id: string,
    pause: boolean,
    opts: { signal?: AbortSignal; scope?: FaultScope } = {},
  ): Promise<{ id: string; pid?: number; processes?: number }> {
    const scope = opts.scope ?? 'node';
    const state = requireState(paths);
    const c = resolveContender(state, id);
    requireTarget(paths, state, c, scope);
    const node = labNode(paths, c.id, state);
    const pid = c.pid ?? 0;
    const alive = mainAlive(paths, c);
    if (pause === contenderPaused(paths, c))
      throw new UsageError(
        `contender ${c.id} is ${pause ? 'already paused' : 'not paused'}`,
        pause ? `resume it with \`zklab resume contender ${c.id}\`` : 'nothing to do',
      );
    // The freeze goes out now; the event is recorded as it is sent, before the wait for it to land.
    recordLabEvent(paths, pause ? 'contender-paused' : 'contender-resumed', { contender: c.id, pid, scope });
    // On hosts: its group there, and its handle here too (which is how this lab reads a node as paused).
    const there = state.hosts
      ? await (await remote()).signalRemoteNode(paths, state, c.id, pause ? 'freeze' : 'thaw')
      : undefined;
    if (!pause) {
      // Whatever paused it, node or program: both are thawed.
      node.thaw();
      if (alive) signal(pid, 'SIGCONT');
    } else if (scope === 'node') {
      await node.freeze(2000, opts.signal);
    } else {
      await signalStop(pid, 2000, opts.signal);
    }
    // What it froze or thawed: the node's processes, or the program alone.
    const processes = scope === 'node' ? { processes: there?.length ?? node.pids().length } : {};
    return { id: c.id, ...(alive ? { pid } : {}), ...processes };
  },
};
