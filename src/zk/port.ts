/**
 * What recipes see of ZooKeeper. src/zk/client.ts implements it on the native client; recipe unit tests
 * may drive a recipe's state machine through a scripted implementation, while every behaviour zklab claims is
 * tested against real servers.
 */
export interface Stat {
  readonly czxid: number;
  readonly mzxid: number;
  readonly version: number;
  readonly cversion: number;
  readonly numChildren: number;
  readonly dataLength: number;
  /** Creation time, wall-clock ms. */
  readonly ctime: number;
  /** Last modification time, wall-clock ms. */
  readonly mtime: number;
  /** Owner session as normalized hex (see normalizeSessionId), or '0' for a persistent znode. */
  readonly ephemeralOwner: string;
}

export type WatchType = 'created' | 'deleted' | 'changed' | 'children' | 'notwatching';

export interface WatchEvent {
  readonly type: WatchType;
  readonly path: string;
}

export type Watcher = (event: WatchEvent) => void;

/** connected: session usable. connecting: connection lost, session may survive. expired: the session is gone (or closed). */
export type SessionState = 'connected' | 'connecting' | 'expired';

export type CreateMode =
  | 'persistent'
  | 'ephemeral'
  | 'ephemeral-sequential'
  | 'persistent-sequential'
  | 'persistent-ttl';

export interface ZkPort {
  /** Normalized hex of the current session, or null before the first connect. */
  readonly sessionId: string | null;
  readonly state: SessionState;
  /** The session timeout the servers granted, in ms. */
  readonly negotiatedTimeoutMs: number;
  create(path: string, data: string | Buffer, mode: CreateMode, ttlMs?: number): Promise<string>;
  /** null when the znode does not exist; the watch is set either way. */
  exists(path: string, watcher?: Watcher): Promise<Stat | null>;
  getData(path: string, watcher?: Watcher): Promise<{ data: Buffer; stat: Stat }>;
  getChildren(path: string, watcher?: Watcher): Promise<string[]>;
  setData(path: string, data: string | Buffer, version?: number): Promise<Stat>;
  delete(path: string, version?: number): Promise<void>;
  /** Creates every missing persistent ancestor and the path itself. */
  mkdirp(path: string): Promise<void>;
  /** Flushes the channel between this client's server and the leader (sync). */
  sync(path: string): Promise<void>;
  onState(listener: (s: SessionState) => void): () => void;
  /** Closes the session (ephemeral znodes vanish at once). Safe to call twice. */
  close(): Promise<void>;
}
