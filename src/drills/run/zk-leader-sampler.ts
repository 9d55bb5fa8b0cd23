import { sessionsOf } from '../../contenders/service.js';
import { readPathLeaders } from '../../contenders/zk-view.js';
import { recordLabEvent } from '../../lab/event-log.js';
import type { LabPaths } from '../../lab/paths.js';
import { directConnectString, readState } from '../../lab/state.js';
import { openObserver } from '../../zk/observer.js';
import type { ZkPort } from '../../zk/port.js';

/** Often enough to place a hand-over within a tenth of a second, rarely enough to cost the servers nothing. */
const SAMPLE_MS = 100;

/**
 * Follows who leads by ZooKeeper's own state during a drill and records each change as a `zk-leader` lab event, so
 * the checkers can judge what contenders believe (and programs that say nothing) against it. It runs in a process
 * of its own (zk-leader-sampler-child.ts): in one process, a ZooKeeper handle that is reconnecting after the servers
 * restart keeps a second handle from getting a session (seen: `kill leader` after `restart all` could not connect
 * for 5 s while the sampler's handle was reconnecting).
 */
export class ZkLeaderSampler {
  private zk: ZkPort | undefined;
  private timer: NodeJS.Timeout | undefined;
  private busy = false;
  private last = '';
  private stopped = false;

  constructor(private readonly paths: LabPaths) {}

  async start(): Promise<void> {
    const state = readState(this.paths);
    if (!state) return;
    await this.reopen(directConnectString(state));
    this.timer = setInterval(() => void this.sample(), SAMPLE_MS);
  }

  /** A session that expired (the ensemble was away longer than its timeout) is replaced, not sampled in vain. */
  private async reopen(connect: string): Promise<void> {
    await this.zk?.close().catch(() => undefined);
    this.zk = undefined;
    this.zk = await openObserver(connect);
  }

  private async sample(): Promise<void> {
    if (this.busy || this.stopped || !this.zk) return;
    this.busy = true;
    try {
      const state = readState(this.paths);
      if (!state || state.contenders.length === 0) return;
      const sessions = sessionsOf(this.paths, state);
      const [lead] = await readPathLeaders(this.zk, state.contenders, sessions);
      const path = lead?.path ?? state.contenders[0]!.path;
      const fields = { path, leader: lead?.contender?.id ?? null, znode: lead?.znode ?? null, session: lead?.owner ?? null };
      const key = JSON.stringify(fields);
      if (key === this.last || this.stopped) return;
      this.last = key;
      recordLabEvent(this.paths, 'zk-leader', fields);
    } catch {
      // A server killed or a quorum lost: ZooKeeper cannot say who leads now; the next sample tries again.
      const state = readState(this.paths);
      if (state && this.zk?.state === 'expired') await this.reopen(directConnectString(state)).catch(() => undefined);
    } finally {
      this.busy = false;
    }
  }

  /** Ends sampling and closes the session. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.zk?.close().catch(() => undefined);
  }
}
