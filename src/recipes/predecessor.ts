import { randomUUID } from 'node:crypto';
import { isCode } from '../zk/errors.js';
import { ElectionRecipe } from './base.js';
import { findByGuid, predecessorOf, sameGuid } from './sequence.js';
import { basename } from '../zk/paths.js';
import type { RecipeIO, RecipeOptions } from './types.js';

/**
 * The ZooKeeper recipe: an EPHEMERAL_SEQUENTIAL "<guid>-n_" znode each; the lowest sequence leads; everyone else
 * watches only the znode just before its own, so one death wakes one contender (no herd).
 */
export class PredecessorElection extends ElectionRecipe {
  private guid = randomUUID();
  /** Whether a create under `guid` may have reached the servers: its znode is looked for before creating again. */
  private guidSent = false;
  /** The session `guid` was chosen in (a new session starts with a new name). */
  private guidSession: string | null = null;
  /** The predecessor whose exists-watch is armed, so a re-evaluation does not stack a second watch on it. */
  private watched: string | null = null;
  /**
   * Until when (ms) a create sent before a connection broke may still be committed: its request can sit in the
   * leader's pipeline past the sync of the retry, and its znode then appear after ours, under our GUID. Until then
   * the parent's children are watched, so such a znode is seen, wherever it lands in the line, and deleted.
   */
  private lateCreateUntil = 0;
  private parentWatched = false;

  constructor(
    opts: RecipeOptions,
    io: RecipeIO,
    private readonly memberData: string,
  ) {
    super(opts, io);
  }

  protected async join(): Promise<void> {
    await this.joinElection();
  }

  /**
   * A new place at the end of the line, under a GUID of its own. The base class runs a join again after a lost reply;
   * the GUID stays until its znode is known, so a retried join finds the znode a lost create made instead of leaving
   * it behind as an orphan that everyone after it waits on.
   */
  protected async joinElection(): Promise<void> {
    this.watched = null;
    if (this.guidSession !== this.zk.sessionId) this.newGuid();
    await this.zk.mkdirp(this.opts.path);
    this.ownNode = await this.createOwnNode();
    this.newGuid();
    this.io.log('joined', { znode: this.ownNode });
    await this.io.failpoint('after-create-before-watch');
  }

  private newGuid(): void {
    this.guid = randomUUID();
    this.guidSent = false;
    this.guidSession = this.zk.sessionId;
  }

  /** Creates the znode; once a create under this GUID may have gone through, looks for it before creating again. */
  private async createOwnNode(): Promise<string> {
    for (;;) {
      try {
        if (this.guidSent) {
          // A create sent before the connection broke may be committed yet not applied on the server reconnected
          // to: sync first, or the look misses it and a second znode is made under the same GUID.
          await this.zk.sync(this.opts.path);
          const mine = findByGuid(await this.zk.getChildren(this.opts.path), this.guid);
          if (mine) return `${this.opts.path}/${mine}`;
          this.lateCreateUntil = Date.now() + 2 * this.opts.sessionTimeoutMs;
        }
        this.guidSent = true;
        return await this.zk.create(`${this.opts.path}/${this.guid}-n_`, this.memberData, 'ephemeral-sequential');
      } catch (e) {
        if (!isCode(e, 'CONNECTIONLOSS', 'OPERATIONTIMEOUT')) throw e;
        this.io.log('retry', { op: 'create', message: (e as Error).message });
        await this.connectedAgain();
      }
    }
  }

  protected async evaluate(): Promise<void> {
    const own = this.ownNode;
    if (!own) return;
    // Both go out at once (one round trip: the server answers a session's requests in order); the ownership check
    // matters only to the one that turns out first, and it is on the path of every hand-over.
    const [children, stat] = await Promise.all([this.children(), this.ownsNode(own)]);
    // The place changed while we read (the session ended and a new one joined): what we read is of the old place,
    // and acting on it would take a second place in the new session.
    if (this.ownNode !== own) return;
    const pred = predecessorOf(children, basename(own));
    if (pred === undefined) {
      // Our znode is gone while the session lives (deleted by someone): take a new place at the end.
      await this.lostPlace();
      return;
    }
    // A znode of our own from a create whose reply never came, before ours or after: a contender behind it would
    // wait on a place no one holds (and we on ourselves, were it just before ours).
    const orphans = children.filter((c) => c !== basename(own) && sameGuid(c, basename(own)));
    let deleted = false;
    for (const o of orphans) deleted = (await this.deleteOrphan(`${this.opts.path}/${o}`)) || deleted;
    if (deleted) {
      this.schedule();
      return;
    }
    if (pred === null) {
      if (!stat) {
        await this.lostPlace();
        return;
      }
      this.claim(stat.czxid);
      return;
    }
    await this.waitFor(`${this.opts.path}/${pred}`);
  }

  /** The election's children; watched while a lost create may still land (lateCreateUntil). */
  private async children(): Promise<string[]> {
    if (Date.now() >= this.lateCreateUntil || this.parentWatched) return this.zk.getChildren(this.opts.path);
    this.parentWatched = true;
    return this.zk.getChildren(this.opts.path, () => {
      this.parentWatched = false;
      if (Date.now() < this.lateCreateUntil) this.schedule();
    });
  }

  /** Deletes a znode this session made and lost track of; gone already, or another's: nothing to do. */
  private async deleteOrphan(path: string): Promise<boolean> {
    const stat = await this.ownsNode(path);
    if (!stat) return false;
    this.io.log('retry', {
      op: 'delete-orphan',
      message: `${basename(path)} is this session's, made by a lost create`,
    });
    await this.deleteIfOwned(path, stat.czxid);
    return true;
  }

  /** Follows `predecessor`: watches it (or its parent, in the herd variant) and re-evaluates when it changes. */
  protected async waitFor(predecessor: string): Promise<void> {
    if (this.watched === predecessor) return;
    const stat = await this.zk.exists(predecessor, (ev) => {
      if (this.watched === predecessor) this.watched = null;
      this.io.log('notified', { path: ev.path, type: ev.type });
      this.schedule();
    });
    if (!stat) {
      // Gone between the listing and the watch: the watch stays armed for a re-creation we will never see; look again.
      this.schedule();
      return;
    }
    this.watched = predecessor;
    this.io.log('watching', { path: predecessor, kind: 'exists' });
    await this.follow({ predecessor });
  }

  private async lostPlace(): Promise<void> {
    if (this.isLeader) await this.endLeadership('resigned', 'znode-gone');
    this.io.log('error', { message: `own znode ${this.ownNode} is gone while the session lives; joining again` });
    await this.joinElection();
    this.schedule();
  }
}
