import { contenderOfWorker, decodeJobData, schedulerLayout, sortWorkers } from '../recipes/scheduler-layout.js';
import { basename, parentPath } from '../zk/paths.js';
import type {
  SchedulerFolder,
  SchedulerNodeFacts,
  SchedulerSummary,
  SchedulerWorker,
  SnapshotNode,
} from './snapshot.js';
import type { RawZnode } from './snapshot-input.js';
import { statusOf } from './znode-facts.js';

/** How many queued jobs the summary names. */
export const NEXT_QUEUED = 5;

/** A task scheduler's root: the lab runs workers of one there, or its election/, workers/ and jobs/ are below it. */
export function isSchedulerRoot(
  root: string,
  children: readonly string[] | null,
  labRoots: readonly string[],
): boolean {
  if (children === null) return false;
  if (labRoots.includes(root)) return true;
  return ['election', 'workers', 'jobs'].every((c) => children.includes(c));
}

/** Each znode's part in the scheduler at root, by its place and data; election members and strangers have none. */
export function schedulerNodeFacts(
  root: string,
  znodes: ReadonlyMap<string, RawZnode>,
): Map<string, SchedulerNodeFacts> {
  const l = schedulerLayout(root);
  const folders = new Map<string, SchedulerFolder>([
    [l.root, 'root'],
    [l.election, 'election'],
    [l.workers, 'workers'],
    [l.jobs, 'jobs'],
    [l.assignments, 'assignments'],
    [l.status, 'status'],
    [l.rotation, 'rotation'],
  ]);
  const childCount = new Map<string, number>();
  for (const p of znodes.keys())
    if (p !== l.root) childCount.set(parentPath(p), (childCount.get(parentPath(p)) ?? 0) + 1);
  const registered = (worker: string): boolean => znodes.has(`${l.workers}/${worker}`);

  const out = new Map<string, SchedulerNodeFacts>();
  for (const [path, z] of znodes) {
    const folder = folders.get(path);
    if (folder) {
      out.set(path, { role: folder });
      continue;
    }
    const parent = parentPath(path);
    const name = basename(path);
    if (parent === l.workers) {
      out.set(path, { role: 'worker', worker: name, contender: contenderOfWorker(name) });
    } else if (parent === l.jobs) {
      const job = decodeJobData(z.data);
      out.set(path, { role: 'queued', job: name, attempt: job?.attempt ?? null, spec: job?.spec ?? null });
    } else if (parent === l.assignments) {
      out.set(path, {
        role: 'worker-queue',
        worker: name,
        registered: registered(name),
        assigned: childCount.get(path) ?? 0,
      });
    } else if (parentPath(parent) === l.assignments) {
      const job = decodeJobData(z.data);
      out.set(path, {
        role: 'assignment',
        job: name,
        worker: basename(parent),
        attempt: job?.attempt ?? null,
        spec: job?.spec ?? null,
      });
    } else if (parent === l.status) {
      const s = statusOf(z);
      out.set(path, {
        role: 'done',
        job: name,
        worker: s?.worker ?? null,
        attempt: s?.attempt ?? null,
        ok: s?.ok ?? null,
        result: s?.result ?? null,
        error: s?.error ?? null,
      });
    }
  }
  return out;
}

/** The scheduler at a glance, from the snapshot's nodes (in tree order, so jobs come oldest first). */
export function summarizeScheduler(root: string, nodes: readonly SnapshotNode[]): SchedulerSummary {
  const leading = nodes.find((n) => n.leader);
  const registered = new Map<string, SnapshotNode>();
  const queues = new Set<string>();
  const assignments = new Map<string, { job: string; attempt: number | null }[]>();
  const queued: string[] = [];
  let assigned = 0;
  let done = 0;
  let ok = 0;
  let failed = 0;
  let nextExpiryMs: number | null = null;
  for (const n of nodes) {
    const f = n.scheduler;
    if (!f) continue;
    switch (f.role) {
      case 'worker':
        registered.set(f.worker, n);
        break;
      case 'worker-queue':
        queues.add(f.worker);
        break;
      case 'queued':
        queued.push(f.job);
        break;
      case 'assignment': {
        assigned++;
        const list = assignments.get(f.worker);
        if (list) list.push({ job: f.job, attempt: f.attempt });
        else assignments.set(f.worker, [{ job: f.job, attempt: f.attempt }]);
        break;
      }
      case 'done':
        done++;
        if (f.ok === true) ok++;
        if (f.ok === false) failed++;
        if (n.ttl && (nextExpiryMs === null || n.ttl.remainingMs < nextExpiryMs)) nextExpiryMs = n.ttl.remainingMs;
        break;
      default:
        break;
    }
  }
  const names = sortWorkers([...new Set([...registered.keys(), ...queues, ...assignments.keys()])]);
  const workers = names.map((worker): SchedulerWorker => {
    const n = registered.get(worker);
    return {
      worker,
      contender: contenderOfWorker(worker),
      registered: n !== undefined,
      alive: n !== undefined && n.sessionId !== null && n.state !== 'expired',
      state: n?.state ?? null,
      assignments: assignments.get(worker) ?? [],
    };
  });
  // Registered workers first: the others only wait for the leader to take their jobs back.
  workers.sort((a, b) => Number(b.registered) - Number(a.registered));
  return {
    root,
    leader: leading ? (leading.contender ?? leading.sessionId) : null,
    workers,
    queued: queued.length,
    nextQueued: queued.slice(0, NEXT_QUEUED),
    assigned,
    done,
    ok,
    failed,
    unreadable: done - ok - failed,
    nextExpiryMs,
  };
}
