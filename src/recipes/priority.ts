import { randomUUID } from 'node:crypto';
import { isCode, unlessGone } from '../zk/errors.js';
import { ElectionRecipe } from './base.js';
import { contenderAction } from './priority-decisions.js';
import { Elector } from './priority-elector.js';
import { ownMemberInfo, PROGRESS, priorityPaths, READY, takeoverMsOf, type PriorityPaths } from './priority-layout.js';
import { readCurrent, readElected, vanished, type CurrentRead, type ElectedRead } from './priority-znodes.js';
import { WatchSet } from './priority-watches.js';
import { findByGuid, predecessorOf } from './sequence.js';
import { basename } from '../zk/paths.js';
import type { RecipeIO, RecipeOptions } from './types.js';

interface Takeover {
  readonly czxid: number;
  /** leader/current's version when the takeover started: READY is written against it. */
  readonly version: number;
  /** A takeover of 0 ms: done as soon as it starts. */
  readonly instant: boolean;
  stage: 'running' | 'done';
  timer: NodeJS.Timeout | undefined;
}

/**
 * Priority election with an elector (Petrescu 2020). Layout under the path:
 *   nodes/<id>                EPHEMERAL, member info {id, pid, priority, site}; also its doorbell (see Elector)
 *   election/<guid>-n_<seq>   EPHEMERAL_SEQUENTIAL, data = id; the lowest is the elector
 *   leader/elected            PERSISTENT, data = the id the elector chose
 *   leader/current            EPHEMERAL of the chosen contender: PROGRESS during its takeover, then READY
 *
 * leader/elected is persistent so that it outlives electors: a new elector reads who was chosen and carries on,
 * and a healthy leader is not disturbed when the elector dies. leader/current is the mutual exclusion: only its
 * holder may lead, and only its holder deletes it (or its session's end does). The elector never deletes it:
 * versions restart at 0 on re-creation, so a holder waking from a pause could then write or delete a successor's
 * znode with a version that still matches.
 */
export class PriorityElection extends ElectionRecipe {
  private readonly paths: PriorityPaths;
  private readonly memberNode: string;
  private readonly watches: WatchSet;
  private guid = randomUUID();
  private joinedSession: string | null = null;
  private elector: Elector | null = null;
  private takeover: Takeover | null = null;
  private leadingCzxid: number | null = null;
  private readyLogged: number | null = null;
  /** The id leader/elected named when last read. */
  private electedSeen: string | null = null;

  constructor(
    opts: RecipeOptions,
    io: RecipeIO,
    private readonly memberData: string,
  ) {
    super(opts, io);
    this.paths = priorityPaths(opts.path);
    this.memberNode = `${this.paths.nodes}/${opts.id}`;
    this.watches = new WatchSet(io, () => this.schedule());
  }

  /** Connection losses are waited out and the step retried by the base class. */
  protected async join(): Promise<void> {
    if (this.zk.sessionId !== this.joinedSession) this.resetForSession();
    for (const p of [this.paths.nodes, this.paths.election, this.paths.leader]) await this.zk.mkdirp(p);
    this.ownNode = await this.createElectionNode();
    await this.createMemberNode();
    this.io.log('joined', { znode: this.ownNode, member: this.memberNode });
  }

  private resetForSession(): void {
    this.joinedSession = this.zk.sessionId;
    this.guid = randomUUID();
    this.watches.reset();
    this.elector?.stop();
    this.elector = null;
    this.electedSeen = null;
    this.cancelTakeover();
    this.leadingCzxid = null;
  }

  /** Looks for the GUID first: a create whose reply was lost must not leave a second znode behind. */
  private async createElectionNode(): Promise<string> {
    for (;;) {
      const mine = findByGuid(await this.zk.getChildren(this.paths.election), this.guid);
      if (mine) return `${this.paths.election}/${mine}`;
      try {
        return await this.zk.create(`${this.paths.election}/${this.guid}-n_`, this.opts.id, 'ephemeral-sequential');
      } catch (e) {
        if (!isCode(e, 'CONNECTIONLOSS', 'OPERATIONTIMEOUT')) throw e;
        this.io.log('retry', { op: 'create', message: (e as Error).message });
        await this.connectedAgain();
      }
    }
  }

  private async createMemberNode(): Promise<void> {
    const info = JSON.stringify(ownMemberInfo(this.opts, this.memberData, process.pid));
    for (;;) {
      try {
        await this.zk.create(this.memberNode, info, 'ephemeral');
        return;
      } catch (e) {
        if (isCode(e, 'CONNECTIONLOSS', 'OPERATIONTIMEOUT')) {
          this.io.log('retry', { op: 'create', message: (e as Error).message });
          await this.connectedAgain();
          continue; // the next create answers NODEEXISTS if the lost one went through
        }
        if (!isCode(e, 'NODEEXISTS')) throw e;
        if (await this.ownsNode(this.memberNode)) return;
        this.io.log('error', {
          message: `${this.memberNode} belongs to another session (same id twice?); waiting for it to go`,
        });
        await vanished(this.zk, this.memberNode);
      }
    }
  }

  protected async evaluate(): Promise<void> {
    const own = this.ownNode;
    if (!own) return;
    // Independent reads go out together, so a follower's pass is one round trip. leader/elected and leader/current
    // are watched by those involved with them as of the last pass; one who becomes involved now arms them below.
    // A contender that is not the elector also lists nodes/ (without a watch): should it have just become the
    // elector, it reads the members in its next round trip instead of two.
    const watchLeader = this.involvedIn(this.electedSeen) ? this.watches : null;
    const [children, memberOwned, electedRead, currentRead, memberNames] = await Promise.all([
      this.zk.getChildren(this.paths.election),
      this.readOwnMember(),
      readElected(this.zk, watchLeader, this.paths.elected),
      readCurrent(this.zk, watchLeader, this.paths.current),
      this.elector ? null : unlessGone(this.zk.getChildren(this.paths.nodes)),
    ]);
    // The place changed while we read (a new session joined): what we read is of the old place.
    if (this.ownNode !== own) return;
    const predecessor = predecessorOf(children, basename(own));
    if (predecessor === undefined) {
      this.io.log('error', { message: `own znode ${this.ownNode} is gone while the session lives; joining again` });
      this.guid = randomUUID();
      this.ownNode = await this.createElectionNode();
      this.schedule();
      return;
    }
    if (!memberOwned) await this.createMemberNode();
    await this.updateElectorRole(predecessor);

    this.electedSeen = electedRead?.id ?? null;
    const involved = this.involvedIn(this.electedSeen);
    const named = this.electedSeen === this.opts.id;
    const armElected = involved && !this.watches.isArmed('exists', this.paths.elected);
    // A named contender about to create leader/current arms that watch with the create.
    const armCurrent =
      involved && !this.watches.isArmed('exists', this.paths.current) && !(named && currentRead === null);
    const [electedNow, current, members] = await Promise.all([
      armElected ? readElected(this.zk, this.watches, this.paths.elected) : electedRead,
      armCurrent ? readCurrent(this.zk, this.watches, this.paths.current) : currentRead,
      this.elector?.readMembers(children, memberNames),
    ]);
    let elected = electedNow;
    if (this.elector && members) {
      const wrote = await this.elector.evaluate(members, elected, current);
      if (wrote !== null) elected = wrote;
    }
    this.electedSeen = elected?.id ?? null;
    await this.actAsContender(elected, current);
  }

  /**
   * Those involved with the leadership watch leader/elected and leader/current: the elector, the
   * named contender, and whoever holds current. The others wait on their own nodes/<id>, where the elector rings.
   */
  private involvedIn(elected: string | null): boolean {
    return this.elector !== null || elected === this.opts.id || this.takeover !== null || this.leadingCzxid !== null;
  }

  /** What a follower waits on: leader/elected when involved, its own nodes/<id> (the doorbell) otherwise. */
  private waitsOn(): string {
    return this.watches.isArmed('exists', this.paths.elected) ? this.paths.elected : this.memberNode;
  }

  /** Own nodes/<id> with the doorbell watch on it, if this session owns it. */
  private async readOwnMember(): Promise<boolean> {
    return (
      (await this.ownsNode(this.memberNode, (p) => this.watches.read('exists', p, (w) => this.zk.exists(p, w)))) !==
      null
    );
  }

  private async updateElectorRole(predecessor: string | null): Promise<void> {
    if (predecessor === null) {
      if (this.elector) return;
      this.elector = new Elector({
        zk: () => this.zk,
        io: this.io,
        opts: this.opts,
        paths: this.paths,
        watches: this.watches,
        schedule: () => this.schedule(),
      });
      this.io.log('elector', { znode: this.ownNode, policy: this.elector.policy });
      return;
    }
    this.elector?.stop();
    this.elector = null;
    const path = `${this.paths.election}/${predecessor}`;
    // Whoever is before us going away may make us the elector; only the lowest znode's death matters, one at a time.
    // The children just read show it alive; an armed watch will report its going.
    if (this.watches.isArmed('exists', path)) return;
    const stat = await this.watches.read('exists', path, (w) => this.zk.exists(path, w));
    if (!stat) this.schedule();
  }

  /**
   * Acts on elected and current until there is nothing more to do now. The steps of a hand-over follow one another
   * in the same pass (create current, read it back, start the takeover, set READY) instead of waiting for a
   * watch or a new pass each: failover time is the length of this chain.
   */
  private async actAsContender(elected: ElectedRead | null, readFirst: CurrentRead | null): Promise<void> {
    let current = readFirst;
    for (let step = 0; step < 4; step++) {
      if (this.takeover && this.takeover.czxid !== current?.czxid) this.cancelTakeover();
      const action = contenderAction({
        me: this.opts.id,
        mySession: this.zk.sessionId ?? '',
        elected: elected?.id ?? null,
        current,
        takeover: this.takeover?.stage ?? 'none',
      });
      switch (action.kind) {
        case 'create-current':
          if (this.isLeader) await this.endLeadership('resigned', 'current-gone');
          current = await this.createCurrent();
          continue;
        case 'await-release':
          await this.follow({ elected: elected?.id ?? null, waitingFor: this.paths.current });
          return;
        case 'start-takeover':
          this.startTakeover(action.czxid, current!.version);
          continue;
        case 'set-ready':
          await this.setReady(action.czxid, this.takeover!.instant);
          return;
        case 'lead':
          this.lead(action.czxid);
          return;
        case 'release':
          await this.release(action.czxid, 'not-elected');
          await this.follow({ watching: this.waitsOn(), elected: elected?.id ?? null });
          return;
        case 'follow':
          await this.follow({ watching: this.waitsOn(), elected: elected?.id ?? null });
          return;
        case 'await-takeover':
        case 'hold':
          return;
      }
    }
    this.schedule();
  }

  /**
   * Creates leader/current with PROGRESS and reads it back in the same round trip (the server answers in order):
   * ours, even after a lost reply, starts the takeover; someone else's is waited for.
   */
  private async createCurrent(): Promise<CurrentRead | null> {
    const [, current] = await Promise.all([
      this.zk.create(this.paths.current, PROGRESS, 'ephemeral').catch((e: unknown) => {
        if (!isCode(e, 'NODEEXISTS')) throw e;
      }),
      readCurrent(this.zk, this.watches, this.paths.current),
    ]);
    return current;
  }

  /** A takeover of 0 ms is done at once, so the same pass goes on to READY. */
  private startTakeover(czxid: number, version: number): void {
    this.cancelTakeover();
    this.io.log('progress', { token: czxid });
    const ms = takeoverMsOf(this.opts);
    const takeover: Takeover = {
      czxid,
      version,
      instant: ms === 0,
      stage: ms === 0 ? 'done' : 'running',
      timer: undefined,
    };
    if (ms > 0) {
      takeover.timer = setTimeout(() => {
        takeover.stage = 'done';
        this.schedule();
      }, ms);
      takeover.timer.unref();
    }
    this.takeover = takeover;
  }

  /**
   * A contender may have been paused during its takeover and wake after the elector moved on: after a takeover that
   * took time, elected is read again, up to date with the leader (sync), before READY; after an instant one, the
   * pass's own read of elected, a round trip ago, stands. The sync and the read go out together; the server holds the read behind the sync.
   * (Mutual exclusion does not rest on this check: leader/current does that, and an elected watch makes a holder
   * that is no longer named let go.)
   */
  private async setReady(czxid: number, electedIsFresh: boolean): Promise<void> {
    const takeover = this.takeover!;
    if (!electedIsFresh) {
      const [, elected] = await Promise.all([
        this.zk.sync(this.paths.elected),
        readElected(this.zk, null, this.paths.elected),
      ]);
      if (elected?.id !== this.opts.id) {
        this.schedule();
        return;
      }
    }
    try {
      await this.zk.setData(this.paths.current, READY, takeover.version);
    } catch (e) {
      if (isCode(e, 'NONODE')) {
        this.cancelTakeover();
        this.schedule();
        return;
      }
      if (!isCode(e, 'BADVERSION')) throw e;
      this.io.log('error', { message: `${this.paths.current} changed during the takeover; starting over` });
      await this.release(czxid, 'current-changed');
      this.schedule();
      return;
    }
    this.lead(czxid);
  }

  private lead(czxid: number): void {
    this.cancelTakeover();
    if (this.readyLogged !== czxid) {
      this.readyLogged = czxid;
      this.io.log('ready', { token: czxid });
    }
    this.leadingCzxid = czxid;
    this.claim(czxid);
  }

  /** Stops leading or taking over, and deletes leader/current if it is still this contender's. */
  private async release(czxid: number, reason: string): Promise<void> {
    const wasTakingOver = this.takeover !== null;
    this.cancelTakeover();
    if (this.isLeader) {
      // Its hook deletes leader/current but swallows failures; the delete below is the one that must succeed.
      await this.endLeadership('resigned', reason);
      await this.deleteCurrent(czxid);
      return;
    }
    this.leadingCzxid = null;
    // Logged before the delete that lets the next candidate in, as a leader's resignation is (see endLeadership).
    this.io.log('resigned', { reason, token: czxid, wasLeader: false, wasTakingOver });
    await this.deleteCurrent(czxid);
  }

  protected override async onLeadershipEnd(): Promise<void> {
    const czxid = this.leadingCzxid;
    this.leadingCzxid = null;
    if (czxid !== null) await this.deleteCurrent(czxid);
  }

  private deleteCurrent(czxid: number): Promise<void> {
    return this.deleteIfOwned(this.paths.current, czxid);
  }

  private cancelTakeover(): void {
    if (this.takeover) clearTimeout(this.takeover.timer);
    this.takeover = null;
  }
}
