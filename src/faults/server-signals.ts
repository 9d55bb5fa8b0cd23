import { UsageError } from '../errors.js';
import { recordLabEvent } from '../lab/event-log.js';
import { withLabLock } from '../lab/lock.js';
import type { LabPaths } from '../lab/paths.js';
import { isPaused, labNode } from '../lab/nodes.js';
import { isOurs, signal, waitForExit } from '../lab/node/procs.js';
import { requireEnsemble, type ServerRecord } from '../lab/state.js';
import { resolveServer } from '../ensemble/service.js';

/** Faults on one server (kill, pause, resume), named zkN: on its node, as a contender's are. */

// Loaded for a lab on hosts alone: its SSH channel (execa) costs every other command ~70 ms of start-up.
const remote = () => import('../hosts/remote-node.js');

function requireLive(paths: LabPaths, s: ServerRecord): number {
  if (!isOurs(s.pid, paths.markers)) {
    throw new UsageError(
      `${s.name} is not running`,
      `start it again with \`zklab ensemble restart ${s.name}\` or \`zklab ensemble up\``,
    );
  }
  return s.pid!;
}

export async function killServer(
  paths: LabPaths,
  name: string,
  sig: 'SIGKILL' | 'SIGTERM' = 'SIGKILL',
): Promise<{ server: string; pid: number }> {
  const state = requireEnsemble(paths);
  const s = resolveServer(state, name);
  const pid = requireLive(paths, s);
  const node = labNode(paths, s.name, state);
  return withLabLock(paths, async () => {
    if (state.hosts) {
      // On its host: the signal to its group there; its handle here ends when the group is empty.
      await (await remote()).signalRemoteNode(paths, state, s.name, sig === 'SIGTERM' ? 'term' : 'kill');
      await waitForExit([pid], sig === 'SIGTERM' ? 10_000 : 5000);
    } else if (sig === 'SIGTERM') {
      node.thaw();
      signal(pid, 'SIGCONT');
      signal(pid, sig);
      await waitForExit([pid], 10_000);
    }
    await node.kill();
    await waitForExit([pid], 5000);
    // One try: a group a killed process still holds goes with the lab (the fault does not wait for it).
    await node.remove(0);
    recordLabEvent(paths, 'server-killed', { server: s.name, signal: sig });
    return { server: s.name, pid };
  });
}

/** A pause returns once the process is stopped (SIGSTOP lands asynchronously); `opts.signal` interrupts that wait. */
export async function pauseServer(
  paths: LabPaths,
  name: string,
  pause: boolean,
  opts: { signal?: AbortSignal } = {},
): Promise<{ server: string; pid: number }> {
  const state = requireEnsemble(paths);
  const s = resolveServer(state, name);
  const pid = requireLive(paths, s);
  if (pause === isPaused(pid)) {
    throw new UsageError(
      `${s.name} is ${pause ? 'already paused' : 'not paused'}`,
      pause ? `resume it with \`zklab resume server ${s.name}\`` : 'nothing to do',
    );
  }
  // The freeze goes out now; the event is recorded as it is sent, before the wait for it to land.
  const node = labNode(paths, s.name, state);
  // On hosts: its group there, and its handle here too (which is how this lab reads a node as paused).
  if (state.hosts) await (await remote()).signalRemoteNode(paths, state, s.name, pause ? 'freeze' : 'thaw');
  const stopped = pause ? node.freeze(2000, opts.signal) : undefined;
  if (!pause) {
    node.thaw();
    signal(pid, 'SIGCONT');
  }
  recordLabEvent(paths, pause ? 'server-paused' : 'server-resumed', { server: s.name });
  await stopped;
  return { server: s.name, pid };
}
