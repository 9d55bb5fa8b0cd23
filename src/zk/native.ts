import { createRequire } from 'node:module';

/** The slice of the `zookeeper` package zklab uses, typed here because the package's own declarations are loose. */
export interface NativeStat {
  readonly czxid: number;
  readonly mzxid: number;
  readonly pzxid: number;
  readonly version: number;
  readonly cversion: number;
  readonly dataLength: number;
  readonly numChildren: number;
  readonly ctime: Date | number;
  readonly mtime: Date | number;
  readonly ephemeralOwner: string;
}

export type NativeWatcher = (type: number, state: number, path: string) => void;

export interface NativeZooKeeper {
  init(config: Record<string, unknown>): NativeZooKeeper;
  on(event: 'connect' | 'connecting' | 'close', listener: (...args: unknown[]) => void): void;
  close(): void;
  readonly client_id: string;
  readonly timeout: number;
  create(path: string, data: string | Buffer, flags: number, ttl?: number): Promise<string>;
  exists(path: string, watch: boolean): Promise<NativeStat | null>;
  w_exists(path: string, watcher: NativeWatcher): Promise<NativeStat | null>;
  get(path: string, watch: boolean): Promise<[NativeStat, Buffer | null]>;
  w_get(path: string, watcher: NativeWatcher): Promise<[NativeStat, Buffer | null]>;
  get_children2(path: string, watch: boolean): Promise<[string[], NativeStat]>;
  w_get_children2(path: string, watcher: NativeWatcher): Promise<[string[], NativeStat]>;
  set(path: string, data: string | Buffer, version: number): Promise<NativeStat>;
  delete_(path: string, version: number): Promise<void>;
  sync(path: string): Promise<void>;
  getconfig(watch: boolean): Promise<[NativeStat, Buffer | string | null]>;
  reconfig(
    joining: string | null,
    leaving: string | null,
    members: string | null,
    version: number,
  ): Promise<[NativeStat, Buffer | string | null]>;
  add_auth(scheme: string, auth: string, done: (rc: number, error: string) => void): void;
  set_servers(servers: string): number;
}

export interface NativeConstants {
  readonly ZOO_PERSISTENT: number;
  readonly ZOO_EPHEMERAL: number;
  readonly ZOO_PERSISTENT_SEQUENTIAL: number;
  readonly ZOO_EPHEMERAL_SEQUENTIAL: number;
  readonly ZOO_PERSISTENT_WITH_TTL: number;
  readonly ZOO_CREATED_EVENT: number;
  readonly ZOO_DELETED_EVENT: number;
  readonly ZOO_CHANGED_EVENT: number;
  readonly ZOO_CHILD_EVENT: number;
  readonly ZOO_NOTWATCHING_EVENT: number;
  readonly ZOO_SESSION_EVENT: number;
  readonly ZOO_LOG_LEVEL_ERROR: number;
  readonly ZOO_LOG_LEVEL_WARN: number;
}

export interface NativeModule {
  new (config: Record<string, unknown>): NativeZooKeeper;
  readonly constants: NativeConstants;
}

const require = createRequire(import.meta.url);

let loaded: NativeModule | undefined;

/** Loads the addon on first use, so commands that never talk to ZooKeeper do not pay for it. */
export function loadNative(): NativeModule {
  loaded ??= require('zookeeper') as NativeModule;
  return loaded;
}
