import { summarizeScheduler } from '../../../src/inspect/scheduler-facts.js';
import type {
  SchedulerNodeFacts,
  Snapshot,
  SnapshotEvent,
  SnapshotNode,
  SnapshotServer,
} from '../../../src/inspect/snapshot.js';

/** Snapshots as `zklab inspect --json` would print them, one per recipe layout, plus the faults the views must show. */

export const T0 = Date.UTC(2025, 0, 2, 3, 4, 5, 678);
const ROOT = '/election';

const guid = (i: number): string => `${(0x7c1e0000 + i * 7919).toString(16)}-7c1e-4b8a-9f3d-2a6b5c4d3e2f`;
export const seqName = (i: number): string => `${guid(i)}-n_${String(i).padStart(10, '0')}`;
export const session = (i: number): string => `0x1000a3f2c00${String(i).padStart(2, '0')}`;

type NodeFields = Partial<SnapshotNode> & { readonly path: string };

export function node(f: NodeFields, root = ROOT): SnapshotNode {
  const rel = f.path === root ? [] : f.path.slice(root.length + 1).split('/');
  const name = rel.length === 0 ? root : rel[rel.length - 1]!;
  const seq = /[_-](\d+)$/.exec(name);
  return {
    name,
    depth: rel.length,
    sequence: rel.length > 0 && seq ? Number(seq[1]) : null,
    czxid: 0x100000000 + rel.length,
    sessionId: null,
    ephemeral: false,
    contender: null,
    pid: null,
    recipe: null,
    leader: false,
    state: 'unknown',
    ageMs: 12_300,
    ttl: null,
    scheduler: null,
    lock: null,
    data: '',
    watchers: [],
    childWatchers: [],
    ...f,
  };
}

/** An ephemeral znode of contender c<i>. */
function contenderNode(
  i: number,
  path: string,
  recipe: string,
  f: Partial<SnapshotNode> = {},
  root = ROOT,
): SnapshotNode {
  return node(
    {
      path,
      sessionId: session(i),
      ephemeral: true,
      contender: `c${i}`,
      pid: 4000 + i,
      recipe,
      state: f.leader ? 'leader' : 'follower',
      ageMs: 10_000 - i * 1000,
      ...f,
    },
    root,
  );
}

const healthyServers: readonly SnapshotServer[] = [
  { name: 'zk1', mode: 'leader', zxid: '0x200000012', connections: 3, partitioned: false, delayMs: 0, childWatches: 0 },
  {
    name: 'zk2',
    mode: 'follower',
    zxid: '0x200000012',
    connections: 2,
    partitioned: false,
    delayMs: 0,
    childWatches: 0,
  },
  {
    name: 'zk3',
    mode: 'follower',
    zxid: '0x200000012',
    connections: 1,
    partitioned: false,
    delayMs: 0,
    childWatches: 0,
  },
];

const ev = (dt: number, who: string, event: string, detail = ''): SnapshotEvent => ({ t: T0 - dt, who, event, detail });

const base = {
  path: ROOT,
  takenAt: T0,
  exists: true,
  scheduler: null,
  lock: null,
  partitions: [],
  absent: [],
  acting: [],
  problems: [],
} as const;

/**
 * Predecessor recipe: c1..c5, each watching the znode just before its own (c5 → c4 → c3 → c2 → c1★). c4 is paused
 * by the lab; a Curator client's latch znode (no contender) sits at sequence 6; zk3 is cut off from the others.
 */
export const predecessor: Snapshot = {
  ...base,
  layout: 'sequential',
  nodes: [
    node({ path: ROOT, ageMs: 60_000 }),
    ...[1, 2, 3, 4, 5].map((i) =>
      contenderNode(i, `${ROOT}/${seqName(i)}`, 'predecessor', {
        leader: i === 1,
        state: i === 1 ? 'leader' : i === 4 ? 'paused' : 'follower',
        watchers: i < 5 ? [`c${i + 1}`] : [],
      }),
    ),
    node({
      path: `${ROOT}/_c_0b7f2d9e-1111-2222-3333-444455556666-latch-0000000006`,
      sessionId: '0x2000b00c0001',
      ephemeral: true,
    }),
  ],
  servers: [
    healthyServers[0]!,
    healthyServers[1]!,
    {
      name: 'zk3',
      mode: 'not-serving',
      zxid: null,
      connections: null,
      partitioned: true,
      delayMs: 0,
      childWatches: null,
    },
  ],
  partitions: [
    { from: 'zk3', to: 'zk1', fault: 'partition' },
    { from: 'zk1', to: 'zk3', fault: 'partition' },
    { from: 'zk3', to: 'zk2', fault: 'partition' },
    { from: 'zk2', to: 'zk3', fault: 'partition' },
  ],
  events: [
    ev(5000, 'c1', 'leader', 'token=4294967297'),
    ev(4000, 'c2', 'follower', 'predecessor=c1'),
    ev(3000, 'c3', 'follower', 'predecessor=c2'),
    ev(2000, 'lab', 'contender-paused', 'id=c4'),
    ev(1000, 'lab', 'partition', 'server=zk3'),
  ],
};

/** Herd recipe: every follower has a child watch on /election itself. */
export const herd: Snapshot = {
  ...base,
  layout: 'sequential',
  nodes: [
    node({ path: ROOT, childWatchers: ['c2', 'c3', 'c4', 'c5'] }),
    ...[1, 2, 3, 4, 5].map((i) => contenderNode(i, `${ROOT}/${seqName(i)}`, 'herd', { leader: i === 1 })),
  ],
  servers: healthyServers.map((s) => (s.name === 'zk1' ? { ...s, childWatches: 4 } : s)),
  events: [ev(500, 'c1', 'leader', 'token=4294967297')],
};

/** Single-file recipe: c2 owns the one `leader` znode; c1 and c3 hold exists watches on it. */
export const singleFile: Snapshot = {
  ...base,
  layout: 'single-file',
  nodes: [
    node({ path: ROOT }),
    contenderNode(2, `${ROOT}/leader`, 'single-file', { leader: true, data: 'c2', watchers: ['c1', 'c3'] }),
  ],
  servers: healthyServers,
  events: [ev(100, 'c2', 'state', 'state=active')],
};

/**
 * Priority recipe: c1 is the elector (lowest in election/), it elected c3, c3 reached READY. nodes/ also holds a
 * znode no session owns, left by a contender that is gone (persistent, TTL or container: a client cannot tell).
 */
export function priority(current: 'PROGRESS' | 'READY' = 'READY'): Snapshot {
  return {
    ...base,
    layout: 'priority',
    nodes: [
      node({ path: ROOT }),
      node({ path: `${ROOT}/election` }),
      ...[1, 2, 3].map((i) => contenderNode(i, `${ROOT}/election/${seqName(i)}`, 'priority')),
      node({ path: `${ROOT}/leader` }),
      contenderNode(3, `${ROOT}/leader/current`, 'priority', { leader: true, data: current, watchers: ['c1'] }),
      contenderNode(1, `${ROOT}/leader/elected`, 'priority', { data: 'c3', watchers: ['c2', 'c3'] }),
      node({ path: `${ROOT}/nodes`, childWatchers: ['c1'] }),
      ...[1, 2, 3].map((i) => contenderNode(i, `${ROOT}/nodes/c${i}`, 'priority', { data: `priority=${i}` })),
      node({ path: `${ROOT}/nodes/c9` }),
    ],
    servers: healthyServers,
    events: [
      ev(300, 'c1', 'elected', 'candidate=c3 policy=highest'),
      ev(200, 'c3', 'progress'),
      ev(100, 'c3', current.toLowerCase()),
    ],
  };
}

/** A sequential election with `count` contenders: the virtualization case. */
export function large(count: number): Snapshot {
  return {
    ...base,
    layout: 'sequential',
    nodes: [
      node({ path: ROOT }),
      ...Array.from({ length: count }, (_, k) =>
        contenderNode(k + 1, `${ROOT}/${seqName(k + 1)}`, 'predecessor', {
          leader: k === 0,
          ageMs: (count - k) * 100,
          watchers: k + 1 < count ? [`c${k + 2}`] : [],
        }),
      ),
    ],
    servers: healthyServers,
    events: [],
  };
}

const SCHED = '/scheduler';
const sched = (path: string, scheduler: SchedulerNodeFacts | null, f: Partial<SnapshotNode> = {}): SnapshotNode =>
  node({ path: `${SCHED}${path}`, scheduler, ...f }, SCHED);
const folder = (
  path: string,
  role: 'root' | 'election' | 'workers' | 'jobs' | 'assignments' | 'status' | 'rotation',
  f: Partial<SnapshotNode> = {},
) => sched(path, { role }, f);
const sleep300 = { kind: 'sleep', ms: 300 } as const;

/**
 * Task scheduler at /scheduler: c1 leads its election (c3 follows); workers c1-1 and c3-1 are registered, c2-1 is
 * gone with a job still assigned; two jobs wait; three status znodes: ok (12.3 s to live, from its data), failed
 * (due), and one whose data is no worker's status (no TTL known).
 */
export function scheduler(): Snapshot {
  const nodes: SnapshotNode[] = [
    folder('', 'root', { name: SCHED }),
    folder('/assignments', 'assignments'),
    sched('/assignments/c1-1', { role: 'worker-queue', worker: 'c1-1', registered: true, assigned: 1 }),
    sched('/assignments/c1-1/job-0000000012', {
      role: 'assignment',
      job: 'job-0000000012',
      worker: 'c1-1',
      attempt: 2,
      spec: sleep300,
    }),
    sched('/assignments/c2-1', { role: 'worker-queue', worker: 'c2-1', registered: false, assigned: 1 }),
    sched('/assignments/c2-1/job-0000000013', {
      role: 'assignment',
      job: 'job-0000000013',
      worker: 'c2-1',
      attempt: 1,
      spec: sleep300,
    }),
    folder('/election', 'election'),
    contenderNode(1, `${SCHED}/election/${seqName(1)}`, 'predecessor', { leader: true, watchers: ['c3'] }, SCHED),
    contenderNode(3, `${SCHED}/election/${seqName(3)}`, 'predecessor', {}, SCHED),
    folder('/jobs', 'jobs'),
    sched('/jobs/job-0000000014', { role: 'queued', job: 'job-0000000014', attempt: 1, spec: sleep300 }),
    sched('/jobs/job-0000000015', {
      role: 'queued',
      job: 'job-0000000015',
      attempt: 1,
      spec: { kind: 'sum', args: [2, 3] },
    }),
    folder('/rotation', 'rotation', { data: '15' }),
    folder('/status', 'status'),
    sched(
      '/status/job-0000000009',
      { role: 'done', job: 'job-0000000009', worker: null, attempt: null, ok: null, result: null, error: null },
      { data: 'left by hand' },
    ),
    sched(
      '/status/job-0000000010',
      { role: 'done', job: 'job-0000000010', worker: 'c1-1', attempt: 1, ok: true, result: 5, error: null },
      {
        ttl: { ms: 30_000, remainingMs: 12_300, source: 'status-data' },
        data: '{"job":"job-0000000010",…',
      },
    ),
    sched(
      '/status/job-0000000011',
      { role: 'done', job: 'job-0000000011', worker: 'c3-1', attempt: 2, ok: false, result: null, error: 'boom' },
      {
        ttl: { ms: 30_000, remainingMs: -500, source: 'status-data' },
        data: '{"job":"job-0000000011",…',
      },
    ),
    folder('/workers', 'workers'),
    contenderNode(
      1,
      `${SCHED}/workers/c1-1`,
      'predecessor',
      { state: 'alive', scheduler: { role: 'worker', worker: 'c1-1', contender: 'c1' }, data: '{"contender":"c1",…' },
      SCHED,
    ),
    contenderNode(
      3,
      `${SCHED}/workers/c3-1`,
      'predecessor',
      { state: 'alive', scheduler: { role: 'worker', worker: 'c3-1', contender: 'c3' }, data: '{"contender":"c3",…' },
      SCHED,
    ),
  ];
  return {
    ...base,
    path: SCHED,
    layout: 'sequential',
    scheduler: summarizeScheduler(SCHED, nodes),
    nodes,
    servers: healthyServers,
    events: [
      ev(400, 'c1', 'job-assigned', 'job=job-0000000012 worker=c1-1 attempt=2'),
      ev(100, 'c1', 'job-status', 'job=job-0000000010 ok=true'),
    ],
  };
}
