import { buildSnapshot } from '../build-snapshot.js';
import type { Snapshot } from '../snapshot.js';
import { withoutObserver } from './hide-observer.js';
import { LabTail } from './lab-tail.js';
import { LinkFaultFollower } from './link-state-reader.js';
import { ObserverSession, type ObserverOptions } from './observer.js';
import { probesFingerprint, ServerPoller } from './server-poller.js';
import { sourceProblems } from './source-problems.js';
import { ZnodeMirror } from './znode-mirror.js';
import type { InspectTarget } from '../target.js';

export interface InspectSourceOptions {
  readonly target: InspectTarget;
  /** 4lw rounds (srvr, mntr, wchp, wchc on every server): at most one per this many ms. Default 1000. */
  readonly pollMs?: number;
  /** How often the lab's files are checked for growth (a stat each). Default 250. */
  readonly tailMs?: number;
  /** Changes arriving within this window make one snapshot. Default 15. */
  readonly coalesceMs?: number;
  /**
   * While nothing changes, a fresh snapshot (ages, the header's clock) at most this often; a 4lw round that found
   * nothing new does not re-render a screen otherwise. Default 5000.
   */
  readonly idleRefreshMs?: number;
  /** Live mode keeps retrying and waits for a missing election path, and its problems say so. Default true. */
  readonly live?: boolean;
  readonly observer?: Pick<ObserverOptions, 'sessionTimeoutMs' | 'connectTimeoutMs' | 'connectFn'>;
}

/** After a change, the next rounds in this window ask for watch lists (two rounds: watches are set just after). */
const WATCH_HOT_MS = 2500;
const WATCH_SAFETY_MS = 5000;
/**
 * How far apart two servers may apply one change: a contender on one server may act on a change that the server
 * this view reads from applies a little later. A belief logged within this of the tree's last read is not held
 * against the tree (src/inspect/problems.ts); generous against a healthy ensemble's few milliseconds.
 */
const APPLY_SKEW_MS = 250;
/** Below the 4lw interval: every round then brings a fresh snapshot. */
const TTL_REFRESH_MS = 500;

export type SnapshotListener = (snapshot: Snapshot) => void;

/** What a live view needs of a source. */
export interface SnapshotFeed {
  current(): Snapshot;
  subscribe(listener: SnapshotListener): () => void;
  /** Re-read processes and logs now, and 4lw as soon as the interval allows (after a key action). */
  refresh(): void;
}

/**
 * Keeps a Snapshot of one election current: znodes through watches on an observer session of its own, servers
 * through 4lw once a second, the lab's contenders, processes and event logs by tailing their files, link faults
 * from the lab's network daemon. Every change becomes a new snapshot for the subscribers within a few ms of being
 * seen; nothing runs while nothing changes except the 1 s 4lw round and the 250 ms stat of the lab's files.
 */
export class InspectSource implements SnapshotFeed {
  private readonly listeners = new Set<SnapshotListener>();
  private readonly mirror: ZnodeMirror;
  private readonly observer: ObserverSession;
  private readonly poller: ServerPoller;
  private readonly lab: LabTail | null;
  private readonly links: LinkFaultFollower | null;
  private snapshot: Snapshot;
  private tailTimer: NodeJS.Timeout | undefined;
  private emitTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  private lastEmitAt = 0;
  /** Watch lists are asked for in rounds until then: the changes seen lately may have moved watches. */
  private watchesHotUntil = 0;
  private lastWatchRound = 0;
  private lastServerFacts = '';
  private readonly readyWaiters: ((s: Snapshot) => void)[] = [];

  private constructor(private readonly opts: InspectSourceOptions) {
    const { target } = opts;
    this.lab = target.lab ? new LabTail(target.lab, target.path) : null;
    this.links = target.lab ? new LinkFaultFollower(target.lab, () => this.changed()) : null;
    this.mirror = new ZnodeMirror(target.path, () => this.changed());
    this.observer = new ObserverSession(
      { connect: target.connect, serving: () => this.poller.probes.some((p) => p.maySession), ...opts.observer },
      {
        onSession: (zk) => this.mirror.attach(zk),
        onLost: () => this.mirror.detach(),
        onReconnected: () => this.mirror.resync(),
        onStateChange: () => this.changed(),
      },
    );
    this.poller = new ServerPoller({
      targets: () => target.servers,
      processFact: (name) => this.lab?.serverFact(name),
      before: () => {
        this.lab?.refreshProcesses();
      },
      wantWatches: () => this.watchRoundDue(),
      onUpdate: () => {
        this.observer.poke();
        this.polled();
      },
      intervalMs: opts.pollMs,
    });
    this.snapshot = this.build();
  }

  static start(opts: InspectSourceOptions): InspectSource {
    const source = new InspectSource(opts);
    source.lab?.poll();
    source.lab?.refreshProcesses();
    source.labChanged();
    source.poller.start();
    source.scheduleTail();
    return source;
  }

  current(): Snapshot {
    return this.snapshot;
  }

  /** The znodes in the snapshot were read on a session (not only remembered from an earlier one, or unknown). */
  get connected(): boolean {
    return this.observer.state === 'connected' && this.mirror.synced;
  }

  subscribe(listener: SnapshotListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The first complete snapshot: the znodes read on a session (or the first attempt to get one failed) and one
   * 4lw round done. What --once and --json print.
   */
  ready(): Promise<Snapshot> {
    if (this.isReady()) return Promise.resolve(this.snapshot);
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  refresh(): void {
    if (this.stopped) return;
    if (this.lab) {
      this.lab.poll();
      this.lab.refreshProcesses();
      this.labChanged();
    }
    this.poller.soon();
    this.changed();
  }

  /** Stops every timer, the 4lw rounds and the observer session; resolves when all are closed. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.tailTimer);
    clearTimeout(this.emitTimer);
    this.listeners.clear();
    // Detach first: reads failing because the session closes must not schedule retries.
    this.mirror.detach();
    await Promise.all([this.poller.stop(), this.observer.stop(), this.links?.stop()]);
  }

  private isReady(): boolean {
    const sessionSettled = this.mirror.synced || (this.observer.settled > 0 && this.observer.state !== 'connected');
    return sessionSettled && this.poller.rounds > 0;
  }

  private scheduleTail(): void {
    if (this.stopped || !this.lab) return;
    this.tailTimer = setTimeout(() => {
      if (this.lab!.poll()) {
        this.lab!.refreshProcesses();
        this.labChanged();
        this.changed();
      }
      this.scheduleTail();
    }, this.opts.tailMs ?? 250);
  }

  /** lab.json changed: the lab network's rules may have, too. */
  private labChanged(): void {
    if (this.lab?.takeStateChanged()) this.links?.read();
  }

  /**
   * Watches move only when something else does (a znode, a contender's event), and both are seen the moment they
   * happen: so mntr, wchp and wchc are asked for in the rounds after a change, and every 5 s as a safety net.
   * That spares the servers (and this process) three of the four connections per server and second while idle.
   */
  private watchRoundDue(): boolean {
    const now = Date.now();
    if (now >= this.watchesHotUntil && now - this.lastWatchRound < WATCH_SAFETY_MS) return false;
    this.lastWatchRound = now;
    return true;
  }

  /** A 4lw round ended: worth a snapshot only when the servers said something new, or the view has aged. */
  private polled(): void {
    // A daemon that did not answer is asked again every round until it does.
    if (this.links?.error) this.links.read();
    const facts = probesFingerprint(this.poller.probes);
    const same = facts === this.lastServerFacts;
    this.lastServerFacts = facts;
    if (!same) this.changed();
    else if (!this.isReady() || Date.now() - this.lastEmitAt >= this.idleRefreshMs()) this.changed(false);
  }

  /** TTLs count down on screen, so while the view shows one it is refreshed every round. */
  private idleRefreshMs(): number {
    return this.snapshot.nodes.some((n) => n.ttl) ? TTL_REFRESH_MS : (this.opts.idleRefreshMs ?? 5000);
  }

  /**
   * Something changed (or, with moved false, only time passed): one new snapshot for whatever else arrives within
   * the coalescing window.
   */
  private changed(moved = true): void {
    if (moved) this.watchesHotUntil = Date.now() + WATCH_HOT_MS;
    if (this.stopped || this.emitTimer) return;
    this.emitTimer = setTimeout(() => {
      this.emitTimer = undefined;
      if (this.stopped) return;
      this.lastEmitAt = Date.now();
      this.snapshot = this.build();
      for (const l of this.listeners) l(this.snapshot);
      if (this.isReady()) for (const w of this.readyWaiters.splice(0)) w(this.snapshot);
    }, this.opts.coalesceMs ?? 15);
  }

  private build(): Snapshot {
    const { target } = this.opts;
    // Beliefs read now are at least as fresh as the tree: compared with it, none is behind it (problems.ts).
    if (this.lab?.poll()) {
      this.lab.refreshProcesses();
      this.labChanged();
    }
    const readAt = this.mirror.readAt;
    const servers = withoutObserver(
      this.poller.probes.map((p) => p.input),
      this.observer.sessionId,
      this.mirror.watchCounts(),
    );
    const snapshot = buildSnapshot({
      path: target.path,
      takenAt: Date.now(),
      znodes: this.mirror.znodes(),
      ...(readAt === undefined ? {} : { treeReadAt: readAt - APPLY_SKEW_MS }),
      // Until the znodes have been read once, what contenders claim cannot be checked against them.
      contenders: this.mirror.synced ? (this.lab?.contenders() ?? []) : [],
      schedulerRoots: this.lab?.schedulerRoots(),
      lockPaths: this.lab?.lockPaths(),
      resourceEvents: this.lab?.resourceEvents(),
      leaderRule: this.lab?.leaderRule(),
      servers,
      partitions: this.links?.partitions ?? [],
      nodeFaults: this.lab?.nodeFaults() ?? [],
      events: this.lab?.events() ?? [],
    });
    const problems = sourceProblems(snapshot, {
      connect: target.connect,
      live: this.opts.live !== false,
      synced: this.mirror.synced,
      observer: this.observer.state,
      observerError: this.observer.lastError,
      probes: this.poller.probes,
      linkError: this.links?.error ?? null,
    });
    return { ...snapshot, problems };
  }
}
