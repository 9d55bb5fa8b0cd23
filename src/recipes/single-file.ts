import { setTimeout as sleep } from 'node:timers/promises';
import { isCode } from '../zk/errors.js';
import type { Stat } from '../zk/port.js';
import { ElectionRecipe } from './base.js';
import { RetriesExhausted, SINGLE_FILE_BACKOFF, withRetries } from './single-file-retry.js';
import { SingleFileStates } from './single-file-states.js';
import type { RecipeIO, RecipeOptions } from './types.js';

/**
 * Single-file election: everyone tries to create the one EPHEMERAL `<path>/leader` znode; whoever does leads
 * (fencing token: its czxid), everyone else watches it and tries again when it goes. Every ZooKeeper call is
 * retried with backoff on connection loss; a NODEEXISTS is checked against this session (the create may have
 * succeeded while its reply was lost). The active / inactive / paused states are reported as `state` events.
 */
export class SingleFileElection extends ElectionRecipe {
  private readonly leaderPath: string;
  private readonly states: SingleFileStates;
  private joinedSession: string | null = null;
  private watchArmed = false;
  private leadingCzxid: number | null = null;

  constructor(
    opts: RecipeOptions,
    io: RecipeIO,
    private readonly memberData: string,
  ) {
    super(opts, io);
    this.leaderPath = `${opts.path}/leader`;
    this.states = new SingleFileStates((fields) => io.log('state', fields), opts.onDisconnect === 'pause');
  }

  protected async join(): Promise<void> {
    if (this.zk.sessionId !== this.joinedSession) this.resetForSession();
    for (;;) {
      try {
        await this.retrying('mkdirp', () => this.zk.mkdirp(this.opts.path));
        break;
      } catch (e) {
        if (!(e instanceof RetriesExhausted)) throw e;
        await this.afterExhausted(e);
      }
    }
    this.io.log('joined', { znode: null, path: this.leaderPath });
  }

  private resetForSession(): void {
    const zk = this.zk;
    this.joinedSession = zk.sessionId;
    this.watchArmed = false;
    this.leadingCzxid = null;
    // The base class logs paused/resumed/expired; the states ride on the same session events.
    const off = zk.onState((s) => {
      this.states.connection(s);
      if (s === 'expired') off();
    });
  }

  protected async evaluate(): Promise<void> {
    // Active but no longer leading without having resigned: the base class caught a stall (SIGSTOP).
    if (this.states.current === 'active' && !this.isLeader) this.states.stalled();
    try {
      await this.contend();
    } catch (e) {
      if (!(e instanceof RetriesExhausted)) throw e;
      await this.afterExhausted(e);
      this.schedule();
    }
  }

  /** Never gives up for good: waits until connected (throws if the session expired instead) so the caller starts over. */
  private async afterExhausted(e: RetriesExhausted): Promise<void> {
    this.io.log('retry', {
      op: e.op,
      message: e.last instanceof Error ? e.last.message : String(e.last),
      attempt: e.attempts,
      exhausted: true,
    });
    await this.connectedAgain();
  }

  private async contend(): Promise<void> {
    await this.retrying('create', () => this.tryCreate());
    const stat = await this.retrying('exists', () => this.watchLeader());
    if (!stat) {
      // Deleted between our create and our look: contend again.
      this.schedule();
      return;
    }
    if (stat.ephemeralOwner === this.zk.sessionId) {
      this.ownNode = this.leaderPath;
      this.leadingCzxid = stat.czxid;
      this.claim(stat.czxid);
      if (this.isLeader) this.states.decided(true);
      return;
    }
    this.ownNode = null;
    await this.follow({ watching: this.leaderPath });
    this.states.decided(false);
  }

  /** true when this call created the znode; false when it exists (whose it is, the caller finds out). */
  private async tryCreate(): Promise<boolean> {
    try {
      await this.zk.create(this.leaderPath, this.memberData, 'ephemeral');
      return true;
    } catch (e) {
      if (isCode(e, 'NODEEXISTS')) return false;
      if (!isCode(e, 'NONODE')) throw e;
      await this.zk.mkdirp(this.opts.path); // the election path was removed under us
      return false;
    }
  }

  /** exists() on the leader znode, arming one watch at a time: a deletion (or creation) re-runs the election. */
  private async watchLeader(): Promise<Stat | null> {
    if (this.watchArmed) return this.zk.exists(this.leaderPath);
    const session = this.joinedSession;
    const stat = await this.zk.exists(this.leaderPath, (ev) => {
      // The native client also hands session events to every armed watcher; they do not disarm it.
      if (ev.type === 'notwatching' || session !== this.joinedSession) return;
      this.watchArmed = false;
      this.io.log('notified', { path: ev.path, type: ev.type });
      this.schedule();
    });
    this.watchArmed = true;
    this.io.log('watching', { path: this.leaderPath, kind: 'exists' });
    return stat;
  }

  private retrying<T>(op: string, fn: () => Promise<T>): Promise<T> {
    return withRetries(op, fn, SINGLE_FILE_BACKOFF, {
      isRetryable: (e) => isCode(e, 'CONNECTIONLOSS', 'OPERATIONTIMEOUT'),
      onRetry: (attempt, delayMs, e) => this.io.log('retry', { op, message: (e as Error).message, attempt, delayMs }),
      sleep: (ms) => sleep(ms),
    });
  }

  /** A clean resignation deletes the znode at once, so the others need not wait for the session to close. */
  protected override async onLeadershipEnd(): Promise<void> {
    const czxid = this.leadingCzxid;
    this.leadingCzxid = null;
    this.ownNode = null;
    if (czxid !== null) await this.deleteIfOwned(this.leaderPath, czxid);
  }
}
