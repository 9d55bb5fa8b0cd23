import { setTimeout as sleep } from 'node:timers/promises';
import type { LockOptions, RecipeIO, ResourcePort } from './types.js';

/** What the lock loop needs from the election recipe it rides on. */
export interface LockHost {
  readonly io: RecipeIO;
  readonly lock: LockOptions;
  /** The current session, to tell a hold of an earlier session (a zombie) from one of this session. */
  session(): string | null;
  znode(): string | null;
  /**
   * Ends the hold's leadership (if it still has it) and deletes `znode` if it is still this session's of `token`.
   * `decided` hears whether it still held it, before the delete: nobody can acquire before that moment.
   */
  release(znode: string, token: number, decided: (held: boolean) => void): Promise<void>;
  /** Takes a new place at the end of the queue. */
  rejoin(): Promise<void>;
}

/**
 * The lock workload's loop on top of an election recipe: holding the lock is leading it. acquire → hold → release →
 * think → acquire… While it holds, the holder writes to the protected resource with its token.
 *
 * A holder here is as naive as most real code: once it holds, its work runs to the end of the hold on a timer, whatever
 * happened to its session meanwhile. A holder frozen past its session wakes up, writes with its old token and only
 * then lets go. That is the zombie the fencing token is for; the resource, not the lock, has to stop it.
 */
export class LockLoop {
  /** The token of the hold under way (a re-claim of the same znode after a stall must not start a second one). */
  private holding: number | null = null;
  private joinedAt = Date.now();
  private thinking = false;
  private stopped = false;
  private port: ResourcePort | null = null;

  constructor(private readonly host: LockHost) {}

  /** True while the contender is between a release and its next place in the queue. */
  get idle(): boolean {
    return this.thinking;
  }

  joined(): void {
    this.joinedAt = Date.now();
  }

  stop(): void {
    this.stopped = true;
  }

  acquired(token: number): void {
    if (this.holding === token) return;
    this.holding = token;
    void this.hold(token).finally(() => {
      if (this.holding === token) this.holding = null;
    });
  }

  private resource(): ResourcePort {
    return (this.port ??= this.host.io.resource());
  }

  private async hold(token: number): Promise<void> {
    const { io, lock } = this.host;
    const session = this.host.session();
    const znode = this.host.znode();
    const since = Date.now();
    io.log('lock-acquired', { token, waitedMs: since - this.joinedAt });
    let base = 0;
    try {
      base = (await this.resource().read()).value;
    } catch (e) {
      io.log('error', { message: `reading the resource: ${(e as Error).message}` });
    }
    if (lock.holdMs > 0) await sleep(lock.holdMs);
    if (this.stopped) return;
    try {
      const r = await this.resource().write(token, base + 1);
      io.log('lock-write', { token, value: base + 1, accepted: r.accepted, lastToken: r.lastToken, previousValue: r.previousValue });
    } catch (e) {
      io.log('error', { message: `writing the resource: ${(e as Error).message}` });
    }
    if (this.stopped || znode === null) return;
    let told = false;
    const decided = (held: boolean): void => {
      if (told) return;
      told = true;
      io.log('lock-released', { token, heldMs: Date.now() - since, reason: held ? 'done' : 'lost' });
    };
    await this.host.release(znode, token, decided).catch(() => decided(false));
    decided(false);
    // A session that ended meanwhile has already taken a new place in the queue.
    if (this.stopped || this.host.session() !== session || this.host.znode() !== znode) return;
    this.thinking = true;
    try {
      if (lock.thinkMs > 0) await sleep(lock.thinkMs);
    } finally {
      this.thinking = false;
    }
    if (!this.stopped && this.host.session() === session) await this.host.rejoin();
  }
}
