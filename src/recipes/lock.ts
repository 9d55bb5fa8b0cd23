import { isCode } from '../zk/errors.js';
import type { ZkPort } from '../zk/port.js';
import { HerdElection } from './herd.js';
import { LockLoop } from './lock-loop.js';
import { PredecessorElection } from './predecessor.js';
import type { RecipeIO, RecipeOptions } from './types.js';

// TypeScript asks a mixin's base for a rest list of any; the classes passed take (opts, io, memberData).
type ElectionClass = new (...args: any[]) => PredecessorElection;

/**
 * The lock recipe of seed 004: the election's ephemeral-sequential znodes under the lock path; the lowest holds.
 * Holding is leading, so a holder is what the lab calls `leader` (faults, inspect, drills).
 */
function lockRecipe<B extends ElectionClass>(Election: B) {
  return class Lock extends Election {
    readonly loop: LockLoop;

    // A mixin's constructor takes its arguments as a rest list (TypeScript's rule); they are the election's.
    constructor(...args: any[]) {
      const [opts, io, memberData] = args as [RecipeOptions, RecipeIO, string];
      super(opts, io, memberData);
      if (!opts.lock) throw new Error('a lock contender needs lock options');
      this.loop = new LockLoop({
        io,
        lock: opts.lock,
        session: () => this.session,
        znode: () => this.znode,
        release: async (znode, token, decided) => {
          if (this.isLeader) await this.endLeadership('resigned', 'released', false);
          await deleteHeld(this.zk, znode, token, decided);
        },
        rejoin: async () => {
          await this.joinElection();
          this.schedule();
        },
      });
    }

    protected override async joinElection(): Promise<void> {
      await super.joinElection();
      this.loop.joined();
    }

    /** Between a release and the next place in the queue there is nothing to decide. */
    protected override async evaluate(): Promise<void> {
      if (!this.loop.idle) await super.evaluate();
    }

    protected override onLeading(token: number): void {
      this.loop.acquired(token);
    }

    override async stop(): Promise<void> {
      this.loop.stop();
      await super.stop();
    }
  };
}

/** Each waiter watches the znode just before its own: one waiter wakes per release, in sequence order. */
export const PredecessorLock = lockRecipe(PredecessorElection);
/** Each waiter watches the lock path's children, as seed 004's naive version does: every waiter wakes on every change. */
export const HerdLock = lockRecipe(HerdElection);

/**
 * Deletes the held znode if this session still owns that creation of it. Whether it did is told before the delete
 * goes out: a successor can only acquire after the delete, so the release is logged before any successor's claim.
 */
async function deleteHeld(zk: ZkPort, znode: string, token: number, decided: (held: boolean) => void): Promise<void> {
  try {
    const stat = await zk.exists(znode);
    const held = stat !== null && stat.ephemeralOwner === zk.sessionId && stat.czxid === token;
    decided(held);
    if (held) await zk.delete(znode, stat.version);
  } catch (e) {
    if (!isCode(e, 'NONODE', 'BADVERSION', 'SESSIONEXPIRED', 'CLOSED', 'CONNECTIONLOSS', 'OPERATIONTIMEOUT')) throw e;
  }
}
