import { isCode } from '../zk/errors.js';
import { HerdElection } from './herd.js';
import { LockLoop } from './lock-loop.js';
import { PredecessorElection } from './predecessor.js';
import type { RecipeIO, RecipeOptions } from './types.js';

// TypeScript asks a mixin's base for a rest list of any; the classes passed take (opts, io, memberData).
// biome-ignore lint/suspicious/noExplicitAny: a mixin's base must take any[] (TypeScript's rule)
type ElectionClass = new (...args: any[]) => PredecessorElection;

/**
 * The lock recipe of seed 004: the election's ephemeral-sequential znodes under the lock path; the lowest holds.
 * Holding is leading, so a holder is what the lab calls `leader` (faults, inspect, drills).
 */
function lockRecipe<B extends ElectionClass>(Election: B) {
  return class Lock extends Election {
    readonly loop: LockLoop;

    // A mixin's constructor takes its arguments as a rest list (TypeScript's rule); they are the election's.
    // biome-ignore lint/suspicious/noExplicitAny: as above
    constructor(...args: any[]) {
      const [opts, io, memberData] = args as [RecipeOptions, RecipeIO, string];
      super(opts, io, memberData);
      if (!opts.lock) throw new Error('a lock contender needs lock options');
      this.loop = new LockLoop(io, opts.lock, () => this.schedule());
    }

    private joining: Promise<void> | null = null;

    /**
     * One join at a time: a new session's join (the base class's, outside the evaluations) and the loop's rejoin after
     * think may meet; the second waits for the first instead of making a second znode in the same session.
     */
    protected override joinElection(): Promise<void> {
      this.joining ??= (async () => {
        try {
          await super.joinElection();
          this.loop.joined();
        } finally {
          this.joining = null;
        }
      })();
      return this.joining;
    }

    /**
     * The loop's steps run here, one at a time with every other evaluation: a connection loss retries the step, and
     * the end of the session abandons it (the base class's step()).
     */
    protected override async evaluate(): Promise<void> {
      switch (this.loop.next(this.session)) {
        case 'release':
          await this.releaseHeld();
          return;
        case 'think':
          return;
        case 'rejoin':
          // A session that ended while it thought has taken its new place already.
          if (this.ownNode === null) await this.joinElection();
          else this.loop.joined();
          await super.evaluate();
          return;
        case 'evaluate':
          if (this.ownNode) await super.evaluate();
      }
    }

    protected override onLeading(token: number): void {
      if (this.ownNode) this.loop.acquired(token, this.ownNode, this.session);
    }

    override async stop(): Promise<void> {
      this.loop.stop();
      await super.stop();
    }

    /**
     * Ends the hold's leadership (if it still leads with that token) and deletes its znode if this session still
     * owns that creation of it. Whether it did is logged before the delete goes out: a successor can only acquire
     * after the delete, so the release comes before any successor's claim in the logs. A connection loss is thrown
     * for the step to retry; an ended session means the znode is gone.
     */
    private async releaseHeld(): Promise<void> {
      const r = this.loop.release;
      if (this.leading === r.token) await this.endLeadership('resigned', 'released', false);
      try {
        const stat = await this.zk.exists(r.znode);
        const held = stat !== null && stat.ephemeralOwner === this.zk.sessionId && stat.czxid === r.token;
        this.loop.told(held);
        if (held) await this.zk.delete(r.znode, stat.version);
      } catch (e) {
        if (!isCode(e, 'NONODE', 'BADVERSION', 'SESSIONEXPIRED', 'CLOSED')) throw e;
      }
      if (this.ownNode === r.znode) this.ownNode = null;
      this.loop.released();
    }
  };
}

/** Each waiter watches the znode just before its own: one waiter wakes per release, in sequence order. */
export const PredecessorLock = lockRecipe(PredecessorElection);
/** Each waiter watches the lock path's children, as seed 004's naive version does: every waiter wakes on every change. */
export const HerdLock = lockRecipe(HerdElection);
