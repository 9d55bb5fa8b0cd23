import { setTimeout as sleep } from 'node:timers/promises';
import { isCode, ZkError } from '../zk/errors.js';
import { Coalesced } from './coalesced.js';
import type { SessionState, ZkPort } from '../zk/port.js';
import type { Recipe, RecipeIO, RecipeOptions } from './types.js';
import { monotonicMs } from '../monotonic.js';

/** How often a leader logs `act` (its work heartbeat); a longer gap tells it that it was frozen. */
export const ACT_INTERVAL_MS = 200;

/** Thrown inside a recipe step to abandon it because the session ended; the expiry handler takes over. */
class SessionGone extends Error {}

/**
 * What every election recipe shares: the session lifecycle (connected / connecting = paused / expired = rejoin),
 * one evaluation at a time, retries on connection loss, and leadership with a fencing token, periodic `act`
 * heartbeats and stall detection (a SIGSTOPped leader must not act on waking before it re-checks).
 */
export abstract class ElectionRecipe implements Recipe {
  protected zk!: ZkPort;
  protected ownNode: string | null = null;
  private leadingToken: number | null = null;
  private acting = false;
  private actTimer: NodeJS.Timeout | undefined;
  private lastTick = 0;
  private stopping = false;
  private readonly evaluations = new Coalesced(
    () => this.step('evaluate', () => this.evaluate()),
    0,
    () => this.stopping,
  );
  private disconnected = false;
  private unsubscribe: (() => void) | undefined;
  private followingAs: string | null = null;

  constructor(
    protected readonly opts: RecipeOptions,
    protected readonly io: RecipeIO,
  ) {}

  get session(): string | null {
    return this.zk?.sessionId ?? null;
  }

  get znode(): string | null {
    return this.ownNode;
  }

  get isLeader(): boolean {
    return this.leadingToken !== null;
  }

  /** The fencing token of the leadership held now, or null. */
  protected get leading(): number | null {
    return this.leadingToken;
  }

  /** Creates this contender's znode(s) in the current session. */
  protected abstract join(): Promise<void>;
  /** Decides leader or follower from ZooKeeper's state and sets the watches that will call `schedule` again. */
  protected abstract evaluate(): Promise<void>;
  /** Called when leadership ends for any reason, before the event is logged (priority: delete leader/current). */
  protected async onLeadershipEnd(_reason: string): Promise<void> {}
  /** Leadership ends without the release hook (the session is about to close): drop in-process duties only. */
  protected onLeadershipDropped(): void {}
  /** Called once per leadership, after the claim is logged (a workload starts its leader's duties). */
  protected onLeading(_token: number): void {}

  async start(): Promise<void> {
    await this.newSession();
  }

  private async newSession(): Promise<void> {
    for (let attempt = 1; !this.stopping; attempt++) {
      try {
        this.zk = await this.io.connect();
        break;
      } catch (e) {
        this.io.log('retry', { op: 'connect', message: (e as Error).message, attempt });
        await sleep(Math.min(2000, 100 * attempt));
      }
    }
    if (this.stopping) return;
    this.disconnected = false;
    this.followingAs = null;
    this.unsubscribe = this.zk.onState((s) => this.onState(s));
    this.io.log('connected', { timeoutMs: this.zk.negotiatedTimeoutMs });
    await this.step('join', () => this.join());
    this.schedule();
  }

  /** Runs `evaluate` now, or once more after the running one: never two at a time. */
  protected schedule(): void {
    this.evaluations.request();
  }

  /** Runs a step; on connection loss waits for the session to come back and retries; gives up when the session ends. */
  private async step(name: string, fn: () => Promise<void>): Promise<void> {
    for (let attempt = 1; !this.stopping; attempt++) {
      try {
        await fn();
        return;
      } catch (e) {
        if (e instanceof SessionGone || isCode(e, 'SESSIONEXPIRED', 'CLOSED') || this.zk.state === 'expired') return;
        const retryable = e instanceof ZkError && e.retryable;
        this.io.log(retryable ? 'retry' : 'error', { op: name, message: (e as Error).message, attempt });
        if (!retryable) {
          await sleep(Math.min(2000, 100 * attempt));
          continue;
        }
        try {
          await this.connectedAgain();
        } catch {
          return; // the session ended while we waited: the expiry handler rejoins
        }
      }
    }
  }

  /** Resolves when the session is connected (again); throws SessionGone if it expires instead. */
  protected async connectedAgain(): Promise<void> {
    while (!this.stopping) {
      if (this.zk.state === 'connected') return;
      if (this.zk.state === 'expired') throw new SessionGone();
      await new Promise<void>((resolve) => {
        const off = this.zk.onState(() => {
          off();
          resolve();
        });
      });
    }
    throw new SessionGone();
  }

  private onState(s: SessionState): void {
    if (this.stopping) return;
    if (s === 'connecting') {
      this.disconnected = true;
      if (this.opts.onDisconnect === 'ignore') {
        this.io.log('disconnected', { wasLeader: this.isLeader });
        return;
      }
      this.io.log('paused', { reason: 'disconnected', wasLeader: this.isLeader });
      this.stopActing();
    } else if (s === 'connected' && this.disconnected) {
      this.disconnected = false;
      this.io.log('resumed');
      // The session survived; whether this contender still leads is decided afresh (own znode, owner, order).
      this.schedule();
    } else if (s === 'expired') {
      this.unsubscribe?.();
      this.io.log('expired');
      if (this.isLeader) void this.endLeadership('resigned', 'expired');
      this.ownNode = null;
      void this.newSession();
    }
  }

  /**
   * Checks that `path` still exists and belongs to this session; otherwise the contender has lost its place.
   * `exists` may be a watched read.
   */
  protected async ownsNode(
    path: string,
    exists = (p: string) => this.zk.exists(p),
  ): Promise<import('../zk/port.js').Stat | null> {
    const stat = await exists(path);
    return stat && stat.ephemeralOwner === this.zk.sessionId ? stat : null;
  }

  /** Deletes `path` if it is still this session's znode of that creation (czxid); gone or replaced: nothing to do. */
  protected async deleteIfOwned(path: string, czxid: number): Promise<void> {
    const stat = await this.ownsNode(path);
    if (!stat || stat.czxid !== czxid) return;
    await this.zk.delete(path, stat.version).catch((e: unknown) => {
      if (!isCode(e, 'NONODE', 'BADVERSION')) throw e;
    });
  }

  /** Claims (or confirms) leadership with a fencing token; starts acting unless paused by a disconnect. */
  protected claim(token: number): void {
    if (this.disconnected && this.opts.onDisconnect === 'pause') return;
    if (this.leadingToken === token && this.acting) return;
    const fresh = this.leadingToken !== token;
    this.leadingToken = token;
    this.followingAs = null;
    this.io.log('leader', { token });
    this.startActing();
    if (fresh) this.onLeading(token);
  }

  /** Records that this contender follows; ends leadership first if it had it. */
  protected async follow(fields: Readonly<Record<string, unknown>>): Promise<void> {
    if (this.isLeader) await this.endLeadership('resigned', 'lost');
    const key = JSON.stringify(fields);
    if (this.followingAs === key) return;
    this.followingAs = key;
    this.io.log('follower', fields);
  }

  /** `release: false` skips the recipe's hook: the caller is about to close the session, which does the same at once. */
  protected async endLeadership(event: 'resigned' | 'paused', reason: string, release = true): Promise<void> {
    const token = this.leadingToken;
    if (token === null) return;
    this.stopActing();
    this.leadingToken = null;
    // It has stopped acting: its belief ends now. Logged before the release a successor waits for (the delete of its
    // znode or of leader/current), so no successor's claim can come before it in the logs.
    this.io.log(event, { reason, token, wasLeader: true });
    if (release) await this.onLeadershipEnd(reason).catch(() => undefined);
    else this.onLeadershipDropped();
  }

  private startActing(): void {
    this.acting = true;
    this.lastTick = monotonicMs();
    this.actTimer ??= setInterval(() => this.tick(), ACT_INTERVAL_MS);
    this.io.log('act', { token: this.leadingToken });
  }

  private stopActing(): void {
    this.acting = false;
    clearInterval(this.actTimer);
    this.actTimer = undefined;
  }

  private tick(): void {
    // The monotonic clock: a gap on the wall clock may be a clock fault, not a stall.
    const now = monotonicMs();
    const gap = now - this.lastTick;
    this.lastTick = now;
    if (!this.acting || this.leadingToken === null) return;
    // A gap far beyond the interval means this process was frozen (SIGSTOP) or starved: the session may have
    // expired meanwhile and someone else may lead. Stop before acting, then re-check with ZooKeeper.
    if (this.opts.onDisconnect === 'pause' && gap > Math.max(1000, this.opts.sessionTimeoutMs / 3)) {
      this.stopActing();
      this.io.log('paused', { reason: 'stalled', gapMs: gap, wasLeader: true });
      this.leadingToken = null;
      this.onLeadershipDropped();
      this.schedule();
      return;
    }
    this.io.log('act', { token: this.leadingToken });
  }

  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    // Closing the session deletes every ephemeral znode of this contender in one transaction; deleting the leader's
    // znode first would only add round trips before the successor hears of it.
    await this.endLeadership('resigned', 'stopped', false);
    this.unsubscribe?.();
    await this.zk?.close();
    this.io.log('stopped');
  }
}
