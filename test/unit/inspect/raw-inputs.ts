import type { ContenderInput, RawZnode, ServerInput, SnapshotInput } from '../../../src/inspect/snapshot-input.js';

/** Raw facts as the inspect data source collects them, for buildSnapshot tests. */

export const NOW = 1_700_000_100_000;

export function znode(
  path: string,
  f: { owner?: string; ctime?: number; mtime?: number; data?: string; czxid?: number } = {},
): RawZnode {
  return {
    path,
    stat: {
      czxid: f.czxid ?? 1,
      ctime: f.ctime ?? NOW - 5000,
      mtime: f.mtime,
      ephemeralOwner: f.owner ?? '0',
      dataLength: (f.data ?? '').length,
    },
    data: f.data ?? '',
  };
}

export function contender(id: string, session: string | null, f: Partial<ContenderInput> = {}): ContenderInput {
  return {
    id,
    pid: 1000 + Number(id.slice(1)),
    alive: true,
    recipe: 'predecessor',
    sessionId: session,
    state: 'follower',
    ...f,
  };
}

export function server(name: string, f: Partial<ServerInput> = {}): ServerInput {
  return { name, srvr: { mode: name === 'zk1' ? 'leader' : 'follower', zxid: '0x100000005', connections: 2 }, ...f };
}

export function input(f: Partial<SnapshotInput>): SnapshotInput {
  return {
    path: '/election',
    takenAt: NOW,
    znodes: [znode('/election')],
    contenders: [],
    servers: [server('zk1')],
    ...f,
  };
}
