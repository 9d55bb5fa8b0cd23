import { ZkError, type ZkCode } from '../../../src/zk/errors.js';
import type { CreateMode, SessionState, Stat, WatchEvent, Watcher, ZkPort } from '../../../src/zk/port.js';

/**
 * An in-memory ZooKeeper for driving recipes in unit tests: one tree, sessions with ephemeral znodes, sequential
 * names, versions, one-shot watches, and faults (disconnect, lost replies, expiry, kill). As with ZooKeeper, a
 * session sees a watch event before any reply that reflects the change (recipes cache reads while a watch is armed).
 * It models the semantics recipes rely on, not the wire or timing of a real ensemble.
 */
interface Znode {
  data: Buffer;
  czxid: number;
  mzxid: number;
  version: number;
  cversion: number;
  ctime: number;
  owner: string;
  nextSequence: number;
}

const RC: Record<ZkCode, number> = {
  NONODE: -101,
  NODEEXISTS: -110,
  NOTEMPTY: -111,
  BADVERSION: -103,
  CONNECTIONLOSS: -4,
  OPERATIONTIMEOUT: -7,
  SESSIONEXPIRED: -112,
  SESSIONMOVED: -118,
  CLOSED: -116,
  NOAUTH: -102,
  BADARGUMENTS: -8,
  UNIMPLEMENTED: -6,
  NEWCONFIGNOQUORUM: -13,
  RECONFIGINPROGRESS: -14,
  RECONFIGDISABLED: -123,
  OTHER: 0,
};

function fail(code: ZkCode, op: string, path?: string): never {
  throw new ZkError(code, RC[code], op, path, code.toLowerCase());
}

function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

type Fault = 'lose-reply' | 'fail';

export class FakeEnsemble {
  readonly nodes = new Map<string, Znode>([['/', this.blank('0')]]);
  private readonly sessions = new Map<string, FakeSession>();
  private zxid = 0;
  private nextSession = 0x100;
  /** path → the watchers armed on it, by kind. */
  private readonly dataWatches = new Map<string, Set<{ s: FakeSession; w: Watcher }>>();
  private readonly childWatches = new Map<string, Set<{ s: FakeSession; w: Watcher }>>();

  private blank(owner: string): Znode {
    return {
      data: Buffer.alloc(0),
      czxid: 0,
      mzxid: 0,
      version: 0,
      cversion: 0,
      ctime: Date.now(),
      owner,
      nextSequence: 0,
    };
  }

  async connect(): Promise<FakeSession> {
    const s = new FakeSession(this, (this.nextSession++).toString(16));
    this.sessions.set(s.sessionId, s);
    return s;
  }

  data(path: string): string | undefined {
    return this.nodes.get(path)?.data.toString();
  }

  ownerOf(path: string): string | undefined {
    return this.nodes.get(path)?.owner;
  }

  children(path: string): string[] {
    const prefix = path === '/' ? '/' : `${path}/`;
    return [...this.nodes.keys()]
      .filter((p) => p.startsWith(prefix) && p !== prefix && !p.slice(prefix.length).includes('/'))
      .map((p) => p.slice(prefix.length));
  }

  /**
   * The servers expire the session: its ephemerals go. A connected client hears 'expired' at once; a disconnected
   * one (partitioned, say) only when it reconnects, as with the real client.
   */
  expire(session: FakeSession): void {
    this.endSession(session);
    if (!session.dead && session.state === 'connected') session.setState('expired');
  }

  knows(session: FakeSession): boolean {
    return this.sessions.has(session.sessionId);
  }

  /** SIGKILL: the process is gone (it hears nothing more) and, once the session times out, its ephemerals go. */
  kill(session: FakeSession): void {
    session.dead = true;
    this.endSession(session);
  }

  private endSession(session: FakeSession): void {
    this.sessions.delete(session.sessionId);
    for (const [path, node] of [...this.nodes]) if (node.owner === session.sessionId) this.remove(path);
    for (const table of [this.dataWatches, this.childWatches])
      for (const set of table.values()) for (const e of set) if (e.s === session) set.delete(e);
  }

  // ---- operations, called by FakeSession once it decided the call reaches the servers ----

  create(s: FakeSession, path: string, data: Buffer, mode: CreateMode): string {
    const parent = this.nodes.get(parentOf(path));
    if (!parent) fail('NONODE', 'create', path);
    if (parent.owner !== '0') fail('OTHER', 'create', path); // no children under ephemerals
    let full = path;
    if (mode.endsWith('sequential')) full += String(parent.nextSequence++).padStart(10, '0');
    if (this.nodes.has(full)) fail('NODEEXISTS', 'create', path);
    const zxid = ++this.zxid;
    this.nodes.set(full, {
      ...this.blank(mode.startsWith('ephemeral') ? s.sessionId : '0'),
      data,
      czxid: zxid,
      mzxid: zxid,
    });
    parent.cversion++;
    this.fire(this.dataWatches, full, 'created');
    this.fire(this.childWatches, parentOf(full), 'children');
    return full;
  }

  stat(path: string): Stat | null {
    const n = this.nodes.get(path);
    if (!n) return null;
    const numChildren = this.children(path).length;
    return {
      czxid: n.czxid,
      mzxid: n.mzxid,
      version: n.version,
      cversion: n.cversion,
      numChildren,
      dataLength: n.data.length,
      ctime: n.ctime,
      mtime: n.ctime,
      ephemeralOwner: n.owner,
    };
  }

  watch(kind: 'data' | 'children', s: FakeSession, path: string, w: Watcher): void {
    const table = kind === 'data' ? this.dataWatches : this.childWatches;
    const set = table.get(path) ?? new Set();
    set.add({ s, w });
    table.set(path, set);
  }

  setData(path: string, data: Buffer, version: number): Stat {
    const n = this.nodes.get(path);
    if (!n) fail('NONODE', 'setData', path);
    if (version !== -1 && version !== n.version) fail('BADVERSION', 'setData', path);
    n.data = data;
    n.version++;
    n.mzxid = ++this.zxid;
    this.fire(this.dataWatches, path, 'changed');
    return this.stat(path)!;
  }

  delete(path: string, version: number): void {
    const n = this.nodes.get(path);
    if (!n) fail('NONODE', 'delete', path);
    if (version !== -1 && version !== n.version) fail('BADVERSION', 'delete', path);
    if (this.children(path).length > 0) fail('NOTEMPTY', 'delete', path);
    this.remove(path);
  }

  private remove(path: string): void {
    this.nodes.delete(path);
    ++this.zxid;
    const parent = this.nodes.get(parentOf(path));
    if (parent) parent.cversion++;
    this.fire(this.dataWatches, path, 'deleted');
    this.fire(this.childWatches, path, 'deleted');
    this.fire(this.childWatches, parentOf(path), 'children');
  }

  private fire(table: Map<string, Set<{ s: FakeSession; w: Watcher }>>, path: string, type: WatchEvent['type']): void {
    const set = table.get(path);
    if (!set) return;
    table.delete(path);
    for (const { s, w } of set) s.deliver(w, { type, path });
  }
}

export class FakeSession implements ZkPort {
  state: SessionState = 'connected';
  dead = false;
  readonly negotiatedTimeoutMs = 4000;
  private readonly listeners = new Set<(s: SessionState) => void>();
  private readonly faults: { op: string; fault: Fault; path: string | undefined }[] = [];
  private readonly hooks: { op: string; run: () => void }[] = [];
  private readonly held: (() => void)[] = [];
  /** Watchers armed through this session, handed session events like the native client does. */
  private readonly armed = new Set<Watcher>();

  constructor(
    private readonly ensemble: FakeEnsemble,
    readonly sessionId: string,
  ) {}

  /** The next call of `op` (on `path`, if given) fails with CONNECTIONLOSS, after being applied ('lose-reply') or not ('fail'). */
  inject(op: string, fault: Fault, path?: string): void {
    this.faults.push({ op, fault, path });
  }

  /** Runs `run` just before the next call of `op` reaches the servers: a write by someone else in between. */
  before(op: string, run: () => void): void {
    this.hooks.push({ op, run });
  }

  disconnect(): void {
    this.setState('connecting');
  }

  reconnect(): void {
    if (!this.ensemble.knows(this)) {
      this.setState('expired');
      return;
    }
    this.setState('connected');
    for (const run of this.held.splice(0)) run();
  }

  setState(s: SessionState): void {
    this.state = s;
    for (const l of [...this.listeners]) l(s);
    if (s !== 'expired') for (const w of this.armed) w({ type: 'notwatching', path: '' });
  }

  deliver(w: Watcher, event: WatchEvent): void {
    this.armed.delete(w);
    const run = (): void => {
      if (!this.dead && this.state !== 'expired') w(event);
    };
    if (this.state === 'connecting') this.held.push(run);
    else queueMicrotask(run);
  }

  private async call<T>(op: string, path: string, fn: () => T): Promise<T> {
    await Promise.resolve();
    if (this.dead || this.state === 'expired') fail('CLOSED', op, path);
    if (this.state === 'connecting') fail('CONNECTIONLOSS', op, path);
    const h = this.hooks.findIndex((x) => x.op === op);
    if (h >= 0) this.hooks.splice(h, 1)[0]!.run();
    const i = this.faults.findIndex((f) => f.op === op && (f.path === undefined || f.path === path));
    const fault = i >= 0 ? this.faults.splice(i, 1)[0]!.fault : null;
    if (fault === 'fail') fail('CONNECTIONLOSS', op, path);
    const result = fn();
    if (fault === 'lose-reply') fail('CONNECTIONLOSS', op, path);
    return result;
  }

  create(path: string, data: string | Buffer, mode: CreateMode): Promise<string> {
    return this.call('create', path, () => this.ensemble.create(this, path, Buffer.from(data), mode));
  }

  exists(path: string, watcher?: Watcher): Promise<Stat | null> {
    return this.call('exists', path, () => {
      if (watcher) this.arm('data', path, watcher);
      return this.ensemble.stat(path);
    });
  }

  getData(path: string, watcher?: Watcher): Promise<{ data: Buffer; stat: Stat }> {
    return this.call('getData', path, () => {
      const stat = this.ensemble.stat(path);
      if (!stat) fail('NONODE', 'getData', path);
      if (watcher) this.arm('data', path, watcher);
      return { data: Buffer.from(this.ensemble.data(path)!), stat };
    });
  }

  getChildren(path: string, watcher?: Watcher): Promise<string[]> {
    return this.call('getChildren', path, () => {
      if (!this.ensemble.stat(path)) fail('NONODE', 'getChildren', path);
      if (watcher) this.arm('children', path, watcher);
      return this.ensemble.children(path);
    });
  }

  private arm(kind: 'data' | 'children', path: string, watcher: Watcher): void {
    this.armed.add(watcher);
    this.ensemble.watch(kind, this, path, watcher);
  }

  setData(path: string, data: string | Buffer, version = -1): Promise<Stat> {
    return this.call('setData', path, () => this.ensemble.setData(path, Buffer.from(data), version));
  }

  delete(path: string, version = -1): Promise<void> {
    return this.call('delete', path, () => this.ensemble.delete(path, version));
  }

  async mkdirp(path: string): Promise<void> {
    let p = '';
    for (const part of path.split('/').filter(Boolean)) {
      p += `/${part}`;
      try {
        await this.create(p, '', 'persistent');
      } catch (e) {
        if (!(e instanceof ZkError && e.code === 'NODEEXISTS')) throw e;
      }
    }
  }

  sync(path: string): Promise<void> {
    return this.call('sync', path, () => undefined);
  }

  onState(listener: (s: SessionState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    if (this.dead || this.state === 'expired') return;
    this.ensemble.expire(this);
  }
}
