import { describeContender, sessionsOf } from '../contenders/service.js';
import { leadingServer, resolveServer, serverStatuses } from '../ensemble/service.js';
import { UsageError } from '../errors.js';
import type { LabPaths } from '../lab/paths.js';
import { isOurs } from '../lab/node/procs.js';
import {
  directConnectString,
  requireEnsemble,
  requireState,
  type ContenderRecord,
  type LabState,
  type ServerRecord,
} from '../lab/state.js';
import { readPathLeaders } from '../contenders/zk-view.js';
import { withObserver } from '../zk/observer.js';
import { setTimeout as sleep } from 'node:timers/promises';

export interface LeaderFact {
  readonly contender: ContenderRecord;
  readonly znode: string;
  readonly owner: string;
}

/** How often the leader is asked again while the leading znode is a dead contender's. */
const POLL_MS = 100;

/**
 * The leading contender by ZooKeeper's own state: the owner session of the leading znode, mapped to a contender.
 * A contender that was killed leads on, by its znode, until its session expires; a fault aimed at `leader` then
 * waits for the next one (up to that session's timeout and a margin) rather than hit a process that is gone.
 */
export async function resolveLeader(paths: LabPaths, state: LabState = requireState(paths)): Promise<LeaderFact> {
  const first = await leadingNow(paths, state);
  if (isOurs(first.contender.pid, paths.markers)) return first;
  const deadline = Date.now() + (first.contender.sessionTimeoutMs ?? 2000) + 1500;
  for (;;) {
    await sleep(POLL_MS);
    // Between the old znode's expiry and the next claim nobody leads for a moment: ask again.
    const now = await leadingNow(paths, state).catch((e: unknown) => {
      if (e instanceof UsageError && Date.now() <= deadline) return null;
      throw e;
    });
    if (now && isOurs(now.contender.pid, paths.markers)) return now;
    if (now && Date.now() > deadline) {
      throw new UsageError(
        `${now.contender.id} leads by ZooKeeper's znodes, but its process is gone and no live contender took over`,
        'see `zklab contenders list`; name a contender to act on one: `contender cN`',
      );
    }
  }
}

/** Who leads this instant, by ZooKeeper's znodes, dead or alive. */
async function leadingNow(paths: LabPaths, state: LabState): Promise<LeaderFact> {
  const live = state.contenders.filter((c) => isOurs(c.pid, paths.markers));
  if (live.length === 0)
    throw new UsageError('no contender is running in this lab', 'spawn some with `zklab contenders spawn 5`');
  const sessions = sessionsOf(paths, state);
  const leading = await withObserver(directConnectString(state), (zk) => readPathLeaders(zk, live, sessions)).catch(
    (e: Error) => {
      throw new UsageError(`cannot ask the ensemble who leads: ${e.message}`, 'check `zklab ensemble status`');
    },
  );
  // A live contender's path may be led by the lingering znode of a dead one: any contender of the lab counts.
  const ownerOf = (lead: (typeof leading)[number]) =>
    lead.contender ?? state.contenders.find((c) => describeContender(paths, c).sessions.includes(lead.owner));
  if (leading.length > 1) {
    const who = leading.map((lead) => `${ownerOf(lead)?.id ?? `session 0x${lead.owner}`} on ${lead.path}`).join(', ');
    throw new UsageError(
      `"leader" is ambiguous: contenders lead on ${leading.length} paths (${who})`,
      'name the one you mean: `contender cN`',
    );
  }
  const [lead] = leading;
  if (!lead)
    throw new UsageError(
      'nobody leads right now',
      'wait for an election (`zklab contenders list`), or spawn contenders',
    );
  const owner = ownerOf(lead);
  if (owner) return { contender: owner, znode: lead.znode, owner: lead.owner };
  throw new UsageError(
    `the leading znode ${lead.znode} belongs to session 0x${lead.owner}, which no zklab contender owns`,
    'another client leads; kill a contender by name instead',
  );
}

/** The server whose own srvr says it leads. */
export async function zkLeader(paths: LabPaths): Promise<ServerRecord> {
  const state = requireEnsemble(paths);
  const leader = leadingServer(await serverStatuses(paths, state));
  if (!leader)
    throw new UsageError(
      'no server reports itself as leader right now',
      'check `zklab ensemble status`; the ensemble may be electing or without quorum',
    );
  return resolveServer(state, leader.name);
}
