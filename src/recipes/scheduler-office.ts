import { setTimeout as sleep } from 'node:timers/promises';
import { isCode, unlessGone, ZkError } from '../zk/errors.js';
import { MultiError, type MultiOp } from '../zk/multi.js';
import type { ZkPort } from '../zk/port.js';
import { Coalesced } from './coalesced.js';
import { decodeJobData, encodeJobData, sortWorkers, type JobData, type SchedulerLayout } from './scheduler-layout.js';
import type { MultiPort, RecipeIO, SchedulerOptions } from './types.js';
import { labNow } from '../lab/lab-time.js';

/** How long a listing waits after a notification for the changes that come with it (see Coalesced). */
export const SETTLE_MS = 5;

/** Jobs per assignment multi, and how many such multis the leader keeps in flight. */
const ASSIGN_BATCH = 50;
const BATCHES_IN_FLIGHT = 8;

/** What a term needs of the worker that leads: its session, its election znode, its log, and a way to step down. */
export interface OfficeHost {
  readonly zk: ZkPort;
  readonly ownNode: string | null;
  readonly io: RecipeIO;
  /** The worker's session is back (connected); throws if it expired instead. */
  connectedAgain(): Promise<void>;
  /** A multi found this leader's election znode gone: leadership ends now, whatever the process believed. */
  fenced(): Promise<void>;
}

/**
 * One term of the scheduler's leader: it assigns queued jobs to live workers (round-robin or random), puts the
 * jobs of dead workers back in the queue, and reconciles on taking office, on every change of jobs/ or workers/.
 * Assignment and the job's removal from the queue are one multi, fenced by the leader's own election znode: a
 * leader whose session is gone cannot assign. The multis, and the reads that prepare them, run on a session of the
 * term's own. Closed when the leadership ends; a new term is a new object.
 */
export class SchedulerOffice {
  private readonly multi: MultiPort;
  /** The term's first full reconciliation is done. */
  private settled = false;
  /** Paths with a children watch armed for this term (see listWatched). */
  private readonly armed = new Map<string, object>();
  private readonly reconciler = new Coalesced(() => this.reconcileSafely(), SETTLE_MS);
  private closed = false;

  constructor(
    private readonly host: OfficeHost,
    private readonly layout: SchedulerLayout,
    private readonly sched: SchedulerOptions,
    readonly token: number,
  ) {
    this.multi = host.io.openMulti();
  }

  /** Reconciles now, or once more after the pass under way. */
  request(): void {
    if (!this.closed) this.reconciler.request();
  }

  close(): void {
    this.closed = true;
    this.multi.close();
  }

  private async reconcileSafely(): Promise<void> {
    if (this.closed) return;
    try {
      await this.reconcile();
    } catch (e) {
      if (this.closed) return;
      if (e instanceof ZkError && e.retryable) {
        await this.host.connectedAgain().catch(() => undefined);
      } else if (isCode(e, 'SESSIONEXPIRED', 'CLOSED')) {
        return; // the expiry ends this leadership
      } else {
        this.host.io.log('error', { message: `reconcile: ${(e as Error).message}` });
        await sleep(500);
      }
      if (!this.closed) this.reconciler.request();
    }
  }

  /**
   * What the leader does on taking office and on every change of jobs/ or workers/: assignments of workers that
   * are gone go back to the queue (or, when their status exists, are only tidied away); each queued job is assigned
   * to a live worker. The first pass of a term also drops queued jobs that are already assigned or done (left by a
   * predecessor that died mid-step); after it, the multis keep the queue and the assignments apart.
   */
  private async reconcile(): Promise<void> {
    const l = this.layout;
    const again = (): void => {
      if (!this.closed) this.reconciler.request();
    };
    const workers = new Set(await this.listWatched(l.workers));
    let todo = (await this.listWatched(l.jobs)).sort();
    const full = !this.settled;
    const assigned = new Map<string, string>();
    for (const w of await this.host.zk.getChildren(l.assignments)) {
      if (workers.has(w) && !full) continue;
      const jobs = (await unlessGone(this.host.zk.getChildren(`${l.assignments}/${w}`))) ?? [];
      if (workers.has(w)) for (const j of jobs) assigned.set(j, w);
      else await this.takeBack(w, jobs);
    }
    if (full) todo = await this.withoutFinished(todo, assigned);
    this.settled = true;
    const live = sortWorkers([...workers]);
    if (todo.length === 0 || live.length === 0) return;
    // The multi's session may be on a server behind this one: let it catch up before it reads the jobs listed here.
    await this.multi.sync(l.jobs);
    const picks = await this.pick(live, todo.length);
    if (!picks) return;
    const batches: { job: string; worker: string }[][] = [];
    for (let i = 0; i < todo.length; i += ASSIGN_BATCH)
      batches.push(todo.slice(i, i + ASSIGN_BATCH).map((job, k) => ({ job, worker: picks[i + k]! })));
    const retry = await inBatches(batches, BATCHES_IN_FLIGHT, (batch) =>
      !this.closed ? this.assign(batch) : Promise.resolve(false),
    );
    if (retry.some(Boolean)) {
      await sleep(100);
      again();
    }
  }

  /**
   * A watched listing; the watch is set once and again only after it fired (each watcher given to the native
   * client stays registered until its watch fires: one per pass would pile up while workers/ stays the same).
   */
  private async listWatched(path: string): Promise<string[]> {
    if (this.armed.has(path)) return this.host.zk.getChildren(path);
    const token = {};
    this.armed.set(path, token);
    try {
      return await this.host.zk.getChildren(path, () => {
        if (this.armed.get(path) === token) this.armed.delete(path);
        if (!this.closed) this.reconciler.request();
      });
    } catch (e) {
      if (this.armed.get(path) === token) this.armed.delete(path);
      throw e;
    }
  }

  /** Queued jobs that are neither assigned nor done; the others leave the queue. */
  private async withoutFinished(queued: readonly string[], assigned: ReadonlyMap<string, string>): Promise<string[]> {
    const pending: string[] = [];
    for (const job of queued) {
      if (assigned.has(job)) await this.drop(job, `already assigned to ${assigned.get(job)}`);
      else pending.push(job);
    }
    const done = await inBatches(pending, ASSIGN_BATCH, (job) => this.host.zk.exists(`${this.layout.status}/${job}`));
    const todo: string[] = [];
    for (const [i, job] of pending.entries()) {
      if (done[i]) await this.drop(job, 'already done (its status exists)');
      else todo.push(job);
    }
    return todo;
  }

  /**
   * The workers for the next `n` jobs: round-robin takes n positions at once with one compare-and-set on the
   * rotation znode's version, on the multi's session (a read behind the worker's own writes would wait for them),
   * fenced like an assignment. null: this is no longer the leader. Positions of jobs whose assignment then fails
   * are skipped, not reused.
   */
  private async pick(live: readonly string[], n: number): Promise<string[] | null> {
    if (this.sched.strategy === 'random')
      return Array.from({ length: n }, () => live[Math.floor(Math.random() * live.length)]!);
    const rotation = this.layout.rotation;
    for (;;) {
      let start: number;
      let version: number;
      try {
        const r = await this.multi.getData(rotation);
        start = Number(r.data.toString()) || 0;
        version = r.version;
      } catch (e) {
        if (!isCode(e, 'NONODE')) throw e;
        await this.multi.commit([{ op: 'create', path: rotation, data: '0' }]).catch((err: unknown) => {
          if (!isCode(err, 'NODEEXISTS')) throw err;
        });
        continue;
      }
      if (!this.host.ownNode) return null;
      try {
        await this.multi.commit([
          { op: 'check', path: this.host.ownNode },
          { op: 'set', path: rotation, data: String(start + n), version },
        ]);
      } catch (e) {
        if (e instanceof MultiError && e.index === 0 && isCode(e, 'NONODE')) {
          await this.host.fenced();
          return null;
        }
        if (isCode(e, 'BADVERSION')) continue; // another leader moved it: read again
        throw e;
      }
      return Array.from({ length: n }, (_, i) => live[(start + i) % live.length]!);
    }
  }

  /**
   * Assigns a batch in one multi, which holds only while this leader's znode exists and each worker is registered:
   * every assignment created and its job deleted, or nothing. When one job spoils the batch (its worker left, it
   * left the queue), the jobs go one multi each. True: some job should be tried again later.
   */
  private async assign(batch: readonly { job: string; worker: string }[]): Promise<boolean> {
    const l = this.layout;
    let missing = false;
    const items = (
      await Promise.all(
        batch.map(async ({ job, worker }) => {
          try {
            // On the multi's session: the worker's own writes queue on this.zk, and a session answers in order.
            const data = decodeJobData((await this.multi.getData(`${l.jobs}/${job}`)).data);
            const body = encodeJobData(
              data ?? { spec: { kind: 'fail', message: 'unreadable job' }, submittedAt: labNow(), attempt: 1 },
            );
            return { job, worker, attempt: data?.attempt ?? 1, body };
          } catch (e) {
            if (isCode(e, 'NONODE')) {
              missing = true; // left the queue meanwhile, or that server has not seen it yet: the next pass knows
              return null;
            }
            throw e;
          }
        }),
      )
    ).filter((x) => x !== null);
    if (items.length === 0) return missing;
    await this.host.io.failpoint('before-assign');
    if (this.closed || !this.host.ownNode) return false;
    const ops: MultiOp[] = [{ op: 'check', path: this.host.ownNode }];
    for (const w of new Set(items.map((i) => i.worker))) ops.push({ op: 'check', path: `${l.workers}/${w}` });
    for (const i of items)
      ops.push(
        { op: 'create', path: `${l.assignments}/${i.worker}/${i.job}`, data: i.body },
        { op: 'delete', path: `${l.jobs}/${i.job}` },
      );
    try {
      await this.multi.commit(ops);
    } catch (e) {
      if (!(e instanceof MultiError)) throw e;
      if (e.index === 0 && isCode(e, 'NONODE')) {
        // Our election znode is gone: no longer the leader, whatever this process believed.
        await this.host.fenced();
        return false;
      }
      if (e.retryable || isCode(e, 'SESSIONEXPIRED')) return true; // the next commit opens a new multi session
      if (items.length > 1) {
        const again = await Promise.all(items.map((i) => this.assign([i])));
        return again.some(Boolean);
      }
      // One job: its worker left or its queue is not there yet (try later), or the job left the queue (done with it).
      const failed = ops[e.index ?? 0]?.op;
      if (failed === 'delete' && isCode(e, 'NONODE')) return false;
      if (failed === 'create' && isCode(e, 'NODEEXISTS')) {
        await this.drop(items[0]!.job, `already assigned to ${items[0]!.worker}`);
        return false;
      }
      if (isCode(e, 'NONODE')) return true;
      throw e;
    }
    for (const i of items)
      this.host.io.log('job-assigned', {
        job: i.job,
        worker: i.worker,
        attempt: i.attempt,
        strategy: this.sched.strategy,
      });
    await this.host.io.failpoint('after-assign');
    return missing;
  }

  /** The jobs of a worker that is gone: back to the queue (next attempt), or tidied away if already done. */
  private async takeBack(worker: string, jobs: readonly string[]): Promise<void> {
    const l = this.layout;
    for (const job of [...jobs].sort()) {
      if (this.closed || !this.host.ownNode) return;
      const assignment = `${l.assignments}/${worker}/${job}`;
      if (await this.host.zk.exists(`${l.status}/${job}`)) {
        await this.host.zk.delete(assignment).catch((e: unknown) => {
          if (!isCode(e, 'NONODE')) throw e;
        });
        continue;
      }
      let data: JobData | null;
      try {
        data = decodeJobData((await this.host.zk.getData(assignment)).data);
      } catch (e) {
        if (isCode(e, 'NONODE')) continue;
        throw e;
      }
      const attempt = (data?.attempt ?? 0) + 1;
      const body = encodeJobData(
        data
          ? { ...data, attempt }
          : { spec: { kind: 'fail', message: 'unreadable job' }, submittedAt: labNow(), attempt },
      );
      try {
        await this.multi.commit([
          { op: 'check', path: this.host.ownNode },
          { op: 'create', path: `${l.jobs}/${job}`, data: body },
          { op: 'delete', path: assignment },
        ]);
        this.host.io.log('job-requeued', { job, from: worker, attempt });
      } catch (e) {
        if (!(e instanceof MultiError)) throw e;
        if (e.index === 0 || isCode(e, 'SESSIONEXPIRED')) return; // no longer the leader: the next one takes them back
        // Thrown, not returned: reconcileSafely passes again once connected. The worker is gone already, so no
        // watch will fire for it again, and nothing else may ever ask for that pass.
        if (e.retryable) throw e;
        if (e.index === 1) {
          // Queued already (a copy): the assignment alone goes.
          await this.host.zk.delete(assignment).catch(() => undefined);
          continue;
        }
        if (e.index === 2) continue;
        throw e;
      }
    }
    await this.host.zk.delete(`${l.assignments}/${worker}`).catch((e: unknown) => {
      if (!isCode(e, 'NONODE', 'NOTEMPTY')) throw e;
    });
  }

  private async drop(job: string, reason: string): Promise<void> {
    await this.host.zk.delete(`${this.layout.jobs}/${job}`).catch((e: unknown) => {
      if (!isCode(e, 'NONODE')) throw e;
    });
    this.host.io.log('job-dropped', { job, reason });
  }
}

/**
 * `fn` over `items`, at most `width` at a time; results in order. After a failure no new item starts; all in flight
 * end before it is thrown.
 */
async function inBatches<T, R>(
  items: readonly T[],
  width: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | null = null;
  const lane = async (): Promise<void> => {
    while (next < items.length && !failure) {
      const i = next++;
      try {
        out[i] = await fn(items[i]!, i);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
  if (failure) throw (failure as { error: unknown }).error;
  return out;
}
