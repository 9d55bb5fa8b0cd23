import { randomUUID } from 'node:crypto';
import { isCode, ZkError } from '../zk/errors.js';
import { ElectionRecipe } from './base.js';
import { contenderAction } from './priority-decisions.js';
import { Elector } from './priority-elector.js';
import { ownMemberInfo, PROGRESS, priorityPaths, READY, takeoverMsOf, type PriorityPaths } from './priority-layout.js';
import { readCurrent, readElected, vanished, type CurrentRead } from './priority-znodes.js';
import { WatchSet } from './priority-watches.js';
import { basename, findByGuid, predecessorOf } from './sequence.js';
import type { RecipeIO, RecipeOptions } from './types.js';

interface Takeover {
  readonly czxid: number;
  /** leader/current's version when the takeover started: READY is written against it. */
  readonly version: number;
  stage: 'running' | 'done';
  readonly timer: NodeJS.Timeout;
}

/**
 * Priority election with an elector (Petrescu 2020). Layout under the path:
 *   nodes/<id>                EPHEMERAL, member info {id, pid, priority, site}
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
  private lossAttempts = 0;

  constructor(opts: RecipeOptions, io: RecipeIO, private readonly memberData: string) {
    super(opts, io);
    this.paths = priorityPaths(opts.path);
    this.memberNode = `${this.paths.nodes}/${opts.id}`;
    this.watches = new WatchSet(io, () => this.schedule());
  }

  protected async join(): Promise<void> {
    while (!(await this.throughConnectionLoss('join', () => this.joinOnce())));
  }

  protected async evaluate(): Promise<void> {
    if (!(await this.throughConnectionLoss('evaluate', () => this.evaluateOnce()))) this.schedule();
  }

  /**
   * Runs a step and waits out a connection loss itself, so that a session expiring meanwhile surfaces as the base
   * class's SessionGone from inside the step (which ends it cleanly). false: the step must run again.
   */
  private async throughConnectionLoss(op: string, step: () => Promise<void>): Promise<boolean> {
    try {
      await step();
      this.lossAttempts = 0;
      return true;
    } catch (e) {
      if (!(e instanceof ZkError && e.retryable)) throw e;
      this.io.log('retry', { op, message: e.message, attempt: ++this.lossAttempts });
      await this.connectedAgain();
      return false;
    }
  }

  private async joinOnce(): Promise<void> {
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
        this.io.log('error', { message: `${this.memberNode} belongs to another session (same id twice?); waiting for it to go` });
        await vanished(this.zk, this.memberNode);
      }
    }
  }

  private async evaluateOnce(): Promise<void> {
    if (!this.ownNode) return;
    const children = await this.zk.getChildren(this.paths.election);
    const predecessor = predecessorOf(children, basename(this.ownNode));
    if (predecessor === undefined) {
      this.io.log('error', { message: `own znode ${this.ownNode} is gone while the session lives; joining again` });
      this.guid = randomUUID();
      this.ownNode = await this.createElectionNode();
      this.schedule();
      return;
    }
    if (!(await this.ownsNode(this.memberNode))) await this.createMemberNode();
    await this.updateElectorRole(predecessor);

    let elected = await readElected(this.zk, this.watches, this.paths.elected);
    // Only those who may act on leader/current watch it: the elector, the named contender, and its holder.
    const involved = this.elector !== null || elected?.id === this.opts.id || this.takeover !== null || this.leadingCzxid !== null;
    const current = await readCurrent(this.zk, involved ? this.watches : null, this.paths.current);
    if (this.elector) {
      const wrote = await this.elector.evaluate(children, elected, current);
      if (wrote !== null) elected = { id: wrote, version: -1 };
    }
    await this.actAsContender(elected?.id ?? null, current);
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
    const stat = await this.watches.read('exists', path, (w) => this.zk.exists(path, w));
    if (!stat) this.schedule();
  }

  private async actAsContender(elected: string | null, current: CurrentRead | null): Promise<void> {
    if (this.takeover && this.takeover.czxid !== current?.czxid) this.cancelTakeover();
    const action = contenderAction({
      me: this.opts.id,
      mySession: this.zk.sessionId ?? '',
      elected,
      current,
      takeover: this.takeover?.stage ?? 'none',
    });
    switch (action.kind) {
      case 'create-current':
        if (this.isLeader) await this.endLeadership('resigned', 'current-gone');
        await this.createCurrent();
        return;
      case 'await-release':
        await this.follow({ elected, waitingFor: this.paths.current });
        return;
      case 'start-takeover':
        this.startTakeover(action.czxid, current!.version);
        return;
      case 'set-ready':
        await this.setReady(action.czxid);
        return;
      case 'lead':
        this.lead(action.czxid);
        return;
      case 'release':
        await this.release(action.czxid, 'not-elected');
        await this.follow({ watching: this.paths.elected, elected });
        return;
      case 'follow':
        await this.follow({ watching: this.paths.elected, elected });
        return;
      case 'await-takeover':
      case 'hold':
        return;
    }
  }

  private async createCurrent(): Promise<void> {
    try {
      await this.zk.create(this.paths.current, PROGRESS, 'ephemeral');
    } catch (e) {
      if (!isCode(e, 'NODEEXISTS')) throw e;
    }
    // The next pass reads it back: ours (even after a lost reply) starts the takeover; someone else's is waited for.
    this.schedule();
  }

  private startTakeover(czxid: number, version: number): void {
    this.cancelTakeover();
    this.io.log('progress', { token: czxid });
    const takeover: Takeover = {
      czxid,
      version,
      stage: 'running',
      timer: setTimeout(() => {
        takeover.stage = 'done';
        this.schedule();
      }, takeoverMsOf(this.opts)),
    };
    takeover.timer.unref();
    this.takeover = takeover;
  }

  /** A contender that was paused mid-takeover may wake after the elector moved on: re-read elected before READY. */
  private async setReady(czxid: number): Promise<void> {
    const takeover = this.takeover!;
    await this.zk.sync(this.paths.elected);
    const elected = await readElected(this.zk, null, this.paths.elected);
    if (elected?.id !== this.opts.id) {
      this.schedule();
      return;
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
    await this.deleteCurrent(czxid);
    this.io.log('resigned', { reason, token: czxid, wasLeader: false, wasTakingOver });
  }

  protected override async onLeadershipEnd(): Promise<void> {
    const czxid = this.leadingCzxid;
    this.leadingCzxid = null;
    if (czxid !== null) await this.deleteCurrent(czxid);
  }

  private async deleteCurrent(czxid: number): Promise<void> {
    const stat = await this.ownsNode(this.paths.current);
    if (!stat || stat.czxid !== czxid) return;
    try {
      await this.zk.delete(this.paths.current, stat.version);
    } catch (e) {
      if (!isCode(e, 'NONODE', 'BADVERSION')) throw e;
    }
  }

  private cancelTakeover(): void {
    if (this.takeover) clearTimeout(this.takeover.timer);
    this.takeover = null;
  }
}
