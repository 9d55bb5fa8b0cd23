import { formatDuration } from '../duration.js';
import { EventEmitter } from 'node:events';
import { normalizeSessionId } from './session-id.js';
import { toZkError, ZkError, isCode, unlessGone } from './errors.js';
import { loadNative, type NativeStat, type NativeWatcher, type NativeZooKeeper } from './native.js';
import type { CreateMode, SessionState, Stat, Watcher, WatchType, ZkPort } from './port.js';
import { monotonicMs } from '../monotonic.js';

export interface ConnectOptions {
  /** "host:port,host:port" */
  readonly connect: string;
  readonly sessionTimeoutMs: number;
  /** Reject if no session is established within this many ms (the client keeps no retry loop of its own after that). */
  readonly connectTimeoutMs?: number;
  /**
   * Silence the C client's own logging (it prints connection errors to stderr and stdout). The level is global to
   * the process, so only processes whose output is a screen or JSON (the CLI, inspect) ask for it.
   */
  readonly quiet?: boolean;
}

function toStat(s: NativeStat): Stat {
  return {
    czxid: s.czxid,
    mzxid: s.mzxid,
    version: s.version,
    cversion: s.cversion,
    numChildren: s.numChildren,
    dataLength: s.dataLength,
    ctime: s.ctime instanceof Date ? s.ctime.getTime() : Number(s.ctime),
    mtime: s.mtime instanceof Date ? s.mtime.getTime() : Number(s.mtime),
    ephemeralOwner: normalizeSessionId(String(s.ephemeralOwner)),
  };
}

/** A ZooKeeper session on the native C client, with typed errors and explicit session states. */
export class ZkClient implements ZkPort {
  private readonly native: NativeZooKeeper;
  private readonly events = new EventEmitter();
  private current: SessionState = 'connecting';
  private closed = false;
  private session: string | null = null;

  private constructor(native: NativeZooKeeper) {
    this.native = native;
  }

  /**
   * A new session. A server that is still syncing with its leader may refuse a session request outright; the C
   * client reports that as an expiry of the session it never had and gives the handle up. That is a refusal, not
   * an expiry: try again with a new handle until the deadline (connectTimeoutMs; without one, until it works).
   */
  static async connect(opts: ConnectOptions): Promise<ZkClient> {
    const deadline = opts.connectTimeoutMs ? monotonicMs() + opts.connectTimeoutMs : Number.POSITIVE_INFINITY;
    for (let attempt = 1; ; attempt++) {
      const outcome = await ZkClient.attempt(opts, deadline);
      if (outcome instanceof ZkClient) return outcome;
      if (outcome === 'timeout' || monotonicMs() + 100 >= deadline) {
        throw new ZkError(
          'CONNECTIONLOSS',
          -4,
          'connect',
          undefined,
          `no session with ${opts.connect} within ${formatDuration(opts.connectTimeoutMs ?? 0)}`,
        );
      }
      await new Promise((r) => setTimeout(r, Math.min(1000, 50 * attempt)));
    }
  }

  private static attempt(opts: ConnectOptions, deadline: number): Promise<ZkClient | 'refused' | 'timeout'> {
    const Native = loadNative();
    const native = new Native({
      connect: opts.connect,
      timeout: opts.sessionTimeoutMs,
      debug_level: opts.quiet ? 0 : Native.constants.ZOO_LOG_LEVEL_ERROR,
      host_order_deterministic: false,
      data_as_buffer: true,
      // The addon closes the handle as "expired" after this many empty reads in a row; under a blackholed link
      // that would fake an expiry the servers never decided. Set high: expiry is the servers' call.
      response_counter_limit: 100_000,
    });
    const client = new ZkClient(native);
    native.on('connect', () => client.transition('connected'));
    native.on('connecting', () => client.transition('connecting'));
    native.on('close', () => {
      client.closed = true;
      client.transition('expired');
    });
    native.init({});
    return new Promise((resolve) => {
      const timer = Number.isFinite(deadline)
        ? setTimeout(
            () => {
              off();
              void client.close();
              resolve('timeout');
            },
            Math.max(0, deadline - monotonicMs()),
          )
        : undefined;
      const off = client.onState((s) => {
        if (s === 'connected') {
          clearTimeout(timer);
          off();
          resolve(client);
        } else if (s === 'expired') {
          clearTimeout(timer);
          off();
          resolve('refused');
        }
      });
    });
  }

  private transition(s: SessionState): void {
    if (s === 'connected') {
      try {
        this.session = normalizeSessionId(String(this.native.client_id));
      } catch {
        // keep the last known id
      }
    }
    this.current = s;
    this.events.emit('state', s);
  }

  get sessionId(): string | null {
    return this.session;
  }

  get state(): SessionState {
    return this.current;
  }

  get negotiatedTimeoutMs(): number {
    if (this.closed) return 0;
    return this.native.timeout;
  }

  onState(listener: (s: SessionState) => void): () => void {
    this.events.on('state', listener);
    return () => this.events.off('state', listener);
  }

  private watcher(w: Watcher | undefined): NativeWatcher | undefined {
    if (!w) return undefined;
    const c = loadNative().constants;
    return (type, _state, path) => {
      // The C client hands session events (connecting, reconnected) to every armed watcher without disarming it;
      // they are not watch firings, and the session state reaches us through onState anyway.
      if (type === c.ZOO_SESSION_EVENT) return;
      const t: WatchType =
        type === c.ZOO_CREATED_EVENT
          ? 'created'
          : type === c.ZOO_DELETED_EVENT
            ? 'deleted'
            : type === c.ZOO_CHANGED_EVENT
              ? 'changed'
              : type === c.ZOO_CHILD_EVENT
                ? 'children'
                : 'notwatching';
      w({ type: t, path });
    };
  }

  /** Runs a native call unless the handle is gone (using a closed handle crashes the process). */
  private async call<T>(op: string, path: string | undefined, fn: () => Promise<T>): Promise<T> {
    if (this.closed) throw new ZkError('CLOSED', -116, op, path, 'the session is closed');
    try {
      return await fn();
    } catch (e) {
      throw toZkError(e, op, path);
    }
  }

  create(path: string, data: string | Buffer, mode: CreateMode, ttlMs?: number): Promise<string> {
    const c = loadNative().constants;
    const flags = {
      persistent: c.ZOO_PERSISTENT,
      ephemeral: c.ZOO_EPHEMERAL,
      'ephemeral-sequential': c.ZOO_EPHEMERAL_SEQUENTIAL,
      'persistent-sequential': c.ZOO_PERSISTENT_SEQUENTIAL,
      'persistent-ttl': c.ZOO_PERSISTENT_WITH_TTL,
    }[mode];
    return this.call('create', path, () =>
      ttlMs ? this.native.create(path, data, flags, ttlMs) : this.native.create(path, data, flags),
    );
  }

  async exists(path: string, watcher?: Watcher): Promise<Stat | null> {
    const w = this.watcher(watcher);
    const s = await unlessGone(
      this.call('exists', path, () => (w ? this.native.w_exists(path, w) : this.native.exists(path, false))),
    );
    return s ? toStat(s) : null;
  }

  async getData(path: string, watcher?: Watcher): Promise<{ data: Buffer; stat: Stat }> {
    const w = this.watcher(watcher);
    const [stat, data] = await this.call('getData', path, () =>
      w ? this.native.w_get(path, w) : this.native.get(path, false),
    );
    return { data: data ?? Buffer.alloc(0), stat: toStat(stat) };
  }

  async getChildren(path: string, watcher?: Watcher): Promise<string[]> {
    const w = this.watcher(watcher);
    const [children] = await this.call('getChildren', path, () =>
      w ? this.native.w_get_children2(path, w) : this.native.get_children2(path, false),
    );
    return children;
  }

  async setData(path: string, data: string | Buffer, version = -1): Promise<Stat> {
    return toStat(await this.call('setData', path, () => this.native.set(path, data, version)));
  }

  delete(path: string, version = -1): Promise<void> {
    return this.call('delete', path, () => this.native.delete_(path, version));
  }

  sync(path: string): Promise<void> {
    return this.call('sync', path, () => this.native.sync(path));
  }

  /** The ensemble's dynamic configuration as this session's server knows it: `server.N=…` lines and `version=<hex>`. */
  async getConfig(): Promise<string> {
    const [, data] = await this.call('getConfig', '/zookeeper/config', () => this.native.getconfig(false));
    return data === null ? '' : data.toString();
  }

  /**
   * Incremental reconfiguration (the session must be the super user, see addAuth): `joining` server lines, `leaving`
   * ids, comma-separated. Resolves the configuration the leader committed.
   */
  async reconfig(change: { joining?: string; leaving?: string }, fromVersion = -1): Promise<string> {
    const [, data] = await this.call('reconfig', '/zookeeper/config', () =>
      this.native.reconfig(change.joining ?? null, change.leaving ?? null, null, fromVersion),
    );
    return data === null ? '' : data.toString();
  }

  /** Adds credentials to the session (digest: `user:password`); resolves once the server has accepted them. */
  addAuth(scheme: string, auth: string): Promise<void> {
    return this.call(
      'addAuth',
      undefined,
      () =>
        new Promise<void>((resolve, reject) => {
          this.native.add_auth(scheme, auth, (rc, error) =>
            rc === 0 ? resolve() : reject(new Error(`${rc} ${error}`)),
          );
        }),
    );
  }

  /** Moves the session's server list (the C client rebalances its connection, as ZooKeeper's updateServerList). */
  setServers(connect: string): void {
    if (this.closed) return;
    const rc = this.native.set_servers(connect);
    if (rc !== 0)
      throw new ZkError('BADARGUMENTS', rc, 'setServers', undefined, `the client refused the server list ${connect}`);
  }

  async mkdirp(path: string): Promise<void> {
    const parts = path.split('/').filter(Boolean);
    let p = '';
    for (const part of parts) {
      p += `/${part}`;
      try {
        await this.create(p, '', 'persistent');
      } catch (e) {
        if (!isCode(e, 'NODEEXISTS')) throw e;
      }
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Called from inside a completion (an awaited reply resumes there), the C client only flags the close and
    // leaves it to a later zookeeper_process; a process exiting right after would never send it.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise<void>((resolve) => {
      // A handle that never connected emits no close event; do not let that wait hold the process open.
      const timer = setTimeout(resolve, 2000).unref();
      this.native.on('close', () => {
        clearTimeout(timer);
        resolve();
      });
      this.native.close();
    });
    this.transition('expired');
  }
}
