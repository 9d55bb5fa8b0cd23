import { formatDuration } from '../duration.js';
import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { ProcessError, UsageError } from '../errors.js';
import { readEventFile } from '../lab/event-log.js';
import { SAYS_WHERE_IT_STANDS, type ContenderEvent } from '../lab/events.js';
import { tailFile } from '../lab/fs.js';
import { withLabLock } from '../lab/lock.js';
import type { LabPaths } from '../lab/paths.js';
import { isOurs, stopProcesses } from '../lab/node/procs.js';
import { killNodes } from '../lab/nodes.js';
import { directConnectString, readState, writeState, type ContenderRecord } from '../lab/state.js';
import { forgetGoneContenderLinks, stopNetwork } from '../net/lab-network.js';
import { normalizeSessionId } from '../zk/session-id.js';
import { openObserver } from '../zk/observer.js';
import { ephemeralsBelow } from '../zk/ephemerals.js';
import type { ZkPort } from '../zk/port.js';
import { programExitError } from './program.js';
import { runsProgram } from './spec.js';

/** How often a spawn that waits says so when nothing changed. */
const PROGRESS_EVERY_MS = 5000;
/** A spawn that joins within this says nothing of its wait. */
const QUIET_MS = 2000;

/** Where a spawn's join stands: who joined, who is awaited, how long it waits still. */
export interface JoinProgress {
  readonly joined: readonly string[];
  readonly waiting: readonly string[];
  readonly leftMs: number;
}

function sessionsOf(events: readonly ContenderEvent[]): Set<string> {
  return new Set(events.flatMap((e) => (e.session ? [normalizeSessionId(e.session)] : [])));
}

/** True when an ephemeral znode anywhere below `path` (within the walk's bounds) belongs to one of `sessions`. */
async function ownsZnodeUnder(zk: ZkPort, path: string, sessions: ReadonlySet<string>): Promise<boolean> {
  if (sessions.size === 0) return false;
  const found = await ephemeralsBelow(zk, path, { stop: (e) => sessions.has(e.owner) });
  return found.some((e) => sessions.has(e.owner));
}

/** A join walks the tree below a program's path at most this often (a join of a minute is hundreds of rounds). */
const WALK_EVERY_MS = 200;

/**
 * Waits until every contender has joined: a recipe logs `joined` (a scheduler worker `worker-registered` too, so
 * that jobs submitted next can go to it); a program says so (joined, leader, follower) or
 * owns a znode under its path. Fails naming the first one that died (a program with its exit code and stderr).
 */
export async function waitJoined(
  paths: LabPaths,
  records: readonly ContenderRecord[],
  timeoutMs: number,
  opts: { readonly signal?: AbortSignal; readonly onProgress?: (p: JoinProgress) => void } = {},
): Promise<void> {
  const { signal, onProgress } = opts;
  const deadline = Date.now() + timeoutMs;
  let waiting = [...records];
  const started = Date.now();
  let told = { waiting: -1, at: 0 };
  const tell = () => {
    const now = Date.now();
    // A spawn that joins in a moment says nothing; one that waits says so, when who joined changes and every 5 s.
    if (now - started < QUIET_MS) return;
    if (waiting.length === told.waiting && now - told.at < PROGRESS_EVERY_MS) return;
    told = { waiting: waiting.length, at: now };
    const joined = records.filter((r) => !waiting.includes(r)).map((r) => r.id);
    onProgress?.({ joined, waiting: waiting.map((r) => r.id), leftMs: Math.max(0, deadline - now) });
  };
  let observer: ZkPort | undefined;
  const walkedAt = new Map<string, number>();
  const look = async (r: ContenderRecord, events: readonly ContenderEvent[]): Promise<boolean> => {
    if (r.scheduler) return events.some((e) => e.event === 'worker-registered');
    if (!runsProgram(r.recipe)) return events.some((e) => e.event === 'joined');
    // A program that says where it stands has joined; one that says nothing, once ZooKeeper shows its znode.
    if (events.some((e) => SAYS_WHERE_IT_STANDS.has(e.event))) return true;
    if (Date.now() - (walkedAt.get(r.id) ?? 0) < WALK_EVERY_MS) return false;
    walkedAt.set(r.id, Date.now());
    const state = readState(paths);
    if (!state) return false;
    observer ??= await openObserver(directConnectString(state));
    return ownsZnodeUnder(observer, r.path, sessionsOf(events)).catch(() => false);
  };
  try {
    while (waiting.length > 0) {
      signal?.throwIfAborted();
      const still: ContenderRecord[] = [];
      for (const r of waiting) {
        const events = readEventFile(paths.contenderEvents(r.id));
        if (!isOurs(r.pid, paths.markers)) {
          // Read again now that it is gone: the exit it wrote on its way out may have come after the read above.
          const last = readEventFile(paths.contenderEvents(r.id));
          throw (
            (r.program && programExitError(r.id, r.program, last)) ??
            new ProcessError(
              `contender ${r.id} exited while joining; the end of its log:\n${tailFile(paths.contenderLog(r.id))}`,
              'the spawn was taken back; check `zklab ensemble status` and try again',
            )
          );
        }
        if (!(await look(r, events))) still.push(r);
      }
      waiting = still;
      if (waiting.length === 0) return;
      tell();
      if (Date.now() > deadline) {
        const first = waiting[0]!;
        const what = runsProgram(first.recipe)
          ? ` (a program joins when it prints ZKLAB {"event":"joined"} or owns an ephemeral znode below ${first.path})`
          : '';
        throw new UsageError(
          `contender${waiting.length === 1 ? '' : 's'} ${waiting.map((r) => r.id).join(', ')} did not join within ` +
            `${formatDuration(timeoutMs)}${what}; the spawn was taken back`,
          runsProgram(first.recipe)
            ? 'give it longer (--join-timeout 2m), or run the program by hand with the same ZKLAB_* environment'
            : 'check `zklab ensemble status`, or give it longer (--join-timeout 1m)',
        );
      }
      await sleep(25);
    }
  } finally {
    await observer?.close();
  }
}

/** What a spawn changed in the lab's state besides its contenders, to be put back if it fails. */
export interface SpawnUndo {
  readonly nextContender: number;
  /** undefined: the lab was not pointed at an outside ensemble before this spawn. */
  readonly externalConnect: string | undefined;
}

/**
 * Takes back a spawn that failed: its processes are killed, and the lab's state, links and event files are as they
 * were before (bad input leaves the lab unchanged).
 */
export async function undoSpawn(
  paths: LabPaths,
  records: readonly ContenderRecord[],
  before: SpawnUndo,
): Promise<void> {
  const nextBefore = before.nextContender;
  // Every process of their nodes: what a program daemonized while it joined goes with it.
  await stopProcesses(records.map((r) => r.pid!).filter(Boolean), 'SIGKILL').catch(() => undefined);
  await killNodes(
    paths,
    readState(paths),
    records.map((r) => r.id),
  );
  const ids = new Set(records.map((r) => r.id));
  await withLabLock(paths, async () => {
    const state = readState(paths);
    if (!state) return;
    await forgetGoneContenderLinks(paths, state);
    state.contenders = state.contenders.filter((c) => !ids.has(c.id));
    // Only when no other spawn took ids after these: ids are never reused.
    if (state.nextContender === nextBefore + records.length) state.nextContender = nextBefore;
    const unpointed =
      before.externalConnect === undefined && state.externalConnect !== undefined && state.contenders.length === 0;
    if (unpointed) {
      delete state.externalConnect;
      delete state.external;
      delete state.net;
    }
    writeState(paths, state);
    // This spawn pointed the lab at an outside ensemble and started its link daemon: that goes too.
    if (unpointed) await stopNetwork(paths);
  });
  for (const id of ids) {
    rmSync(paths.contenderEvents(id), { force: true });
    rmSync(paths.contenderLog(id), { force: true });
  }
}
