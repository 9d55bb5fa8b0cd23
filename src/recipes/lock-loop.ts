import type { LockOptions, RecipeIO, ResourcePort } from './types.js';
import { monotonicMs } from '../monotonic.js';

/** A hold that has ended and whose znode is still to be let go of. */
export interface PendingRelease {
  readonly token: number;
  readonly znode: string;
  readonly session: string | null;
  readonly since: number;
  /** lock-released has been logged (a release retried after a connection loss logs it once). */
  told: boolean;
}

/**
 * The lock workload's loop on top of an election recipe: holding the lock is leading it. acquire → hold → release →
 * think → acquire… While it holds, the holder presents its token to the protected resource (a read at the start of
 * the hold) and writes to it at the end.
 *
 * A holder here is as naive as most real code: once it holds, its work runs to the end of the hold on a timer, whatever
 * happened to its session meanwhile. A holder frozen past its session wakes up, writes with its old token and only
 * then lets go. That is the zombie the fencing token is for; the resource, not the lock, has to stop it.
 *
 * The hold itself runs on timers; letting go of the znode and taking a new place in the queue are steps of the
 * recipe's evaluation (one at a time, retried after a connection loss, abandoned with the session): `next()` says
 * which one is due.
 */
export class LockLoop {
  /**
   * The tokens of the holds under way: a re-claim of the same znode after a stall must not start a second one. Two
   * can run at once when a session ended during a long hold and the new one acquired before that hold's timer ran out.
   */
  private readonly holding = new Set<number>();
  private joinedAt = monotonicMs();
  /** Holds that have ended and wait for their release, oldest first. */
  private readonly pending: PendingRelease[] = [];
  private thinking = false;
  private rejoinDue = false;
  private stopped = false;
  private port: ResourcePort | null = null;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly io: RecipeIO,
    private readonly lock: LockOptions,
    /** Asks the recipe for an evaluation (which calls next()). */
    private readonly schedule: () => void,
  ) {}

  /** What the evaluation should do now. */
  next(session: string | null): 'release' | 'think' | 'rejoin' | 'evaluate' {
    // A release left over from an ended session: its znode went with the session.
    for (const r of this.pending.filter((p) => p.session !== session)) this.finish(r, false);
    if (this.pending.length > 0) return 'release';
    if (this.thinking) return 'think';
    return this.rejoinDue ? 'rejoin' : 'evaluate';
  }

  /** The release due now (next() said so). */
  get release(): PendingRelease {
    return this.pending[0]!;
  }

  /** Logs lock-released once per hold: `held` is whether its znode was still this session's when it let go. */
  told(held: boolean, r: PendingRelease | undefined = this.pending[0]): void {
    if (!r || r.told) return;
    r.told = true;
    this.io.log('lock-released', {
      token: r.token,
      heldMs: Math.round(monotonicMs() - r.since),
      reason: held ? 'done' : 'lost',
    });
  }

  /** The release is done: think, then take a new place in the queue. */
  released(): void {
    const r = this.pending[0];
    if (r) this.finish(r, false);
    this.thinking = true;
    this.after(this.lock.thinkMs, () => {
      this.thinking = false;
      this.rejoinDue = true;
      this.schedule();
    });
  }

  /** A new place in the queue was taken (the loop's rejoin, or a new session's join). */
  joined(): void {
    this.joinedAt = monotonicMs();
    this.rejoinDue = false;
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  acquired(token: number, znode: string, session: string | null): void {
    if (this.holding.has(token)) return;
    this.holding.add(token);
    const since = monotonicMs();
    this.io.log('lock-acquired', { token, waitedMs: Math.round(since - this.joinedAt) });
    void this.hold(token, znode, session, since);
  }

  private resource(): ResourcePort {
    this.port ??= this.io.resource();
    return this.port;
  }

  private async hold(token: number, znode: string, session: string | null, since: number): Promise<void> {
    let base = 0;
    try {
      // The token goes with the read: the resource knows of this holder from the start of its hold.
      base = (await this.resource().read(token)).value;
    } catch (e) {
      this.io.log('error', { message: `reading the resource: ${(e as Error).message}` });
    }
    await new Promise<void>((resolve) => this.after(this.lock.holdMs, resolve));
    if (this.stopped) return;
    try {
      const r = await this.resource().write(token, base + 1);
      this.io.log('lock-write', {
        token,
        value: base + 1,
        accepted: r.accepted,
        lastToken: r.lastToken,
        previousValue: r.previousValue,
      });
    } catch (e) {
      this.io.log('error', { message: `writing the resource: ${(e as Error).message}` });
    }
    if (this.stopped) return;
    this.pending.push({ token, znode, session, since, told: false });
    this.schedule();
  }

  private finish(r: PendingRelease, held: boolean): void {
    this.told(held, r);
    this.pending.splice(this.pending.indexOf(r), 1);
    this.holding.delete(r.token);
  }

  private after(ms: number, fn: () => void): void {
    if (this.stopped) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      if (!this.stopped) fn();
    }, ms);
    this.timers.add(t);
  }
}
