import { basename } from '../../zk/paths.js';
import { isCode } from '../../zk/errors.js';
import type { Stat, WatchEvent, ZkPort } from '../../zk/port.js';
import type { RawZnode } from '../snapshot-input.js';
import { ownerSession } from '../znode-facts.js';
import { childPath, parentPath } from '../../zk/paths.js';
import { sequenceOf } from '../../recipes/sequence.js';

type JobKind = 'node' | 'children' | 'exists';

interface Job {
  readonly kind: JobKind;
  readonly path: string;
}

export interface MirrorWatchCounts {
  readonly data: number;
  readonly child: number;
}

/** Retry a failed read after this long (connection loss: the client reconnects on its own meanwhile). */
const RETRY_MS = 250;

/**
 * A live copy of the znodes under one path, kept current by ZooKeeper watches instead of polling:
 * a child watch on every znode that can have children (so nested layouts such as the priority recipe's nodes/,
 * election/ and leader/ are followed), a data watch on the root and on named znodes whose data carries state
 * (leader/current PROGRESS → READY, leader/elected), and an exists watch while the root is missing.
 * Every watch is re-armed when it fires, and at most one of each kind is armed per path: the C client calls
 * every registered watcher, so arming twice would double every later notification.
 */
export class ZnodeMirror {
  private readonly nodes = new Map<string, RawZnode>();
  private readonly children = new Map<string, Set<string>>();
  private readonly armed: Record<JobKind, Set<string>> = { node: new Set(), children: new Set(), exists: new Set() };
  private readonly queue = new Map<string, Job>();
  private zk: ZkPort | null = null;
  /** Bumped on attach/detach, so callbacks of an old session change nothing. */
  private generation = 0;
  private draining = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private syncedOnce = false;
  private changed = false;
  private batchSentAt = 0;
  private idleReadAt: number | undefined;

  constructor(
    readonly root: string,
    /** Called once per burst of changes, after the queue has drained. */
    private readonly onChange: () => void,
  ) {}

  /** The root and everything below it that has been read, in no particular order. */
  znodes(): RawZnode[] {
    return [...this.nodes.values()];
  }

  /** True once a full read of the tree has completed on some session (a missing root counts as read). */
  get synced(): boolean {
    return this.syncedOnce;
  }

  /**
   * When the last reads were sent that left nothing more to read: the tree shows every change the servers had
   * applied by then (later ones arrive as notifications). Undefined before the first full read.
   */
  get readAt(): number | undefined {
    return this.idleReadAt;
  }

  /** The watches this mirror holds on the servers, to take its own share out of their counts. */
  watchCounts(): MirrorWatchCounts {
    // An exists watch on a znode that exists is a data watch on it: one per path on the server.
    return { data: new Set([...this.armed.node, ...this.armed.exists]).size, child: this.armed.children.size };
  }

  /** Starts (or restarts, on a new session) mirroring through zk. Known znodes stay until re-read proves them gone. */
  attach(zk: ZkPort): void {
    this.detach();
    this.zk = zk;
    this.resync();
  }

  /** The session is gone: its watches with it. Keeps the last known tree for display. */
  detach(): void {
    this.generation++;
    this.zk = null;
    this.queue.clear();
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    for (const set of Object.values(this.armed)) set.clear();
  }

  /** Re-reads everything (after a reconnect, in case a notification was missed); armed watches are not doubled. */
  resync(): void {
    this.enqueue('node', this.root);
    for (const path of this.nodes.keys()) this.enqueue('node', path);
  }

  private enqueue(kind: JobKind, path: string): void {
    this.queue.set(`${kind} ${path}`, { kind, path });
    void this.drain();
  }

  private async drain(): Promise<void> {
    if (this.draining || !this.zk) return;
    this.draining = true;
    const gen = this.generation;
    let failed = false;
    try {
      while (this.queue.size > 0 && gen === this.generation) {
        const batch = [...this.queue.values()];
        this.queue.clear();
        this.batchSentAt = Date.now();
        const results = await Promise.allSettled(batch.map((job) => this.run(job, gen)));
        results.forEach((r, i) => {
          if (r.status === 'rejected' && gen === this.generation) {
            failed = true;
            const job = batch[i]!;
            this.queue.set(`${job.kind} ${job.path}`, job);
          }
        });
        if (failed) break;
      }
    } finally {
      this.draining = false;
    }
    if (gen !== this.generation) {
      // A new session arrived while this one's reads were in flight: its jobs wait for a drain of their own.
      if (this.zk) void this.drain();
      return;
    }
    if (failed) {
      this.retryTimer ??= setTimeout(() => {
        this.retryTimer = undefined;
        void this.drain();
      }, RETRY_MS);
      return;
    }
    if (this.queue.size > 0) {
      void this.drain();
      return;
    }
    const first = !this.syncedOnce;
    this.syncedOnce = true;
    this.idleReadAt = this.batchSentAt;
    if (this.changed || first) {
      this.changed = false;
      this.onChange();
    }
  }

  private run(job: Job, gen: number): Promise<void> {
    switch (job.kind) {
      case 'node':
        return this.readNode(job.path, gen);
      case 'children':
        return this.readChildren(job.path, gen);
      case 'exists':
        return this.waitForRoot(gen);
    }
  }

  /** Arms a watch of this kind on path unless one is armed; returns the watcher to pass, or undefined. */
  private arm(kind: JobKind, path: string, gen: number): ((e: WatchEvent) => void) | undefined {
    if (this.armed[kind].has(path)) return undefined;
    this.armed[kind].add(path);
    return (e) => this.fired(kind, path, e, gen);
  }

  private fired(kind: JobKind, path: string, e: WatchEvent, gen: number): void {
    // Session events reach every registered watcher without consuming it; the session owner handles those.
    if (gen !== this.generation || e.type === 'notwatching') return;
    this.armed[kind].delete(path);
    if (e.type === 'deleted') {
      // Below the root, the parent's child watch reports a re-created znode.
      this.remove(path);
      if (path === this.root) this.enqueue('exists', path);
    } else {
      this.enqueue(kind === 'children' ? 'children' : 'node', path);
    }
  }

  /** A read that failed registered no watch; a vanished znode leaves the mirror (the root: wait for it again). */
  private readFailed(e: unknown, kind: 'node' | 'children', path: string, gen: number, armed: boolean): void {
    if (armed) this.armed[kind].delete(path);
    if (!isCode(e, 'NONODE')) throw e;
    if (gen !== this.generation) return;
    this.remove(path);
    if (path === this.root) this.enqueue('exists', path);
  }

  private async readNode(path: string, gen: number): Promise<void> {
    const zk = this.zk!;
    const watcher = this.wantsDataWatch(path) ? this.arm('node', path, gen) : undefined;
    let read: { data: Buffer; stat: Stat };
    try {
      read = await zk.getData(path, watcher);
    } catch (e) {
      this.readFailed(e, 'node', path, gen, watcher !== undefined);
      return;
    }
    if (gen !== this.generation) return;
    const raw: RawZnode = {
      path,
      stat: {
        czxid: read.stat.czxid,
        ctime: read.stat.ctime,
        mtime: read.stat.mtime,
        ephemeralOwner: read.stat.ephemeralOwner,
        dataLength: read.stat.dataLength,
      },
      data: read.data.toString('utf8'),
    };
    const before = this.nodes.get(path);
    const same =
      before &&
      before.data === raw.data &&
      before.stat.czxid === raw.stat.czxid &&
      before.stat.mtime === raw.stat.mtime &&
      before.stat.ephemeralOwner === raw.stat.ephemeralOwner;
    if (!same) this.changed = true;
    this.nodes.set(path, raw);
    // Only an ephemeral znode cannot have children.
    if (ownerSession(raw.stat.ephemeralOwner) === null) this.enqueue('children', path);
  }

  private async readChildren(path: string, gen: number): Promise<void> {
    if (path !== this.root && !path.startsWith(this.root === '/' ? '/' : `${this.root}/`)) return;
    const zk = this.zk!;
    const watcher = this.arm('children', path, gen);
    let names: string[];
    try {
      names = await zk.getChildren(path, watcher);
    } catch (e) {
      this.readFailed(e, 'children', path, gen, watcher !== undefined);
      return;
    }
    if (gen !== this.generation) return;
    const now = new Set(names);
    const known = this.children.get(path) ?? new Set<string>();
    for (const name of known) if (!now.has(name)) this.remove(childPath(path, name));
    this.children.set(path, now);
    for (const name of now) if (!this.nodes.has(childPath(path, name))) this.enqueue('node', childPath(path, name));
  }

  private async waitForRoot(gen: number): Promise<void> {
    const watcher = this.arm('exists', this.root, gen);
    let stat: Stat | null;
    try {
      stat = await this.zk!.exists(this.root, watcher);
    } catch (e) {
      if (watcher) this.armed.exists.delete(this.root);
      throw e;
    }
    if (gen === this.generation && stat) this.enqueue('node', this.root);
  }

  /**
   * The root (so its deletion and the observer's own session show up on the servers) and named znodes below it;
   * sequential members carry no changing state, and watching hundreds of them would only add load.
   */
  private wantsDataWatch(path: string): boolean {
    return path === this.root || sequenceOf(basename(path)) === null;
  }

  private remove(path: string): void {
    const prefix = `${path}/`;
    for (const p of [...this.nodes.keys()]) {
      if (p === path || p.startsWith(prefix)) {
        this.nodes.delete(p);
        this.changed = true;
      }
    }
    for (const p of [...this.children.keys()]) if (p === path || p.startsWith(prefix)) this.children.delete(p);
    if (path !== this.root) this.children.get(parentPath(path))?.delete(basename(path));
    if (path === this.root) this.changed = true;
  }
}
