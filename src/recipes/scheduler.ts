import { setTimeout as sleep } from 'node:timers/promises';
import { isCode, ZkError } from '../zk/errors.js';
import { MultiError, type MultiOp } from '../zk/multi.js';
import { Coalesced } from './coalesced.js';
import { PredecessorElection } from './predecessor.js';
import { runJob } from './scheduler-jobs.js';
import {
  decodeJobData,
  encodeJobData,
  encodeStatusData,
  schedulerLayout,
  sortWorkers,
  workerName,
  type JobData,
  type SchedulerLayout,
} from './scheduler-layout.js';
import type { MultiPort, RecipeIO, RecipeOptions, SchedulerOptions } from './types.js';

/** How long a listing waits after a notification for the changes that come with it (see Coalesced). */
const SETTLE_MS = 5;

/** Jobs per assignment multi, and how many such multis the leader keeps in flight. */
const ASSIGN_BATCH = 50;
const BATCHES_IN_FLIGHT = 8;

/** The leader's term: the token it leads with and the session its multis run in. */
interface Office {
  readonly token: number;
  readonly multi: MultiPort;
  /** The term's first full reconciliation is done. */
  settled: boolean;
  /** Paths with a children watch armed for this term (see listWatched). */
  readonly armed: Map<string, object>;
}

/**
 * The task scheduler of seed 001 as a contender: every worker runs jobs assigned to it; the one the predecessor
 * election names leader also assigns queued jobs to workers (round-robin or random), puts the jobs of dead workers
 * back in the queue, and on taking office reconciles what it finds. Assignment and the job's removal from the queue
 * are one multi, fenced by the leader's own election znode: a leader whose session is gone cannot assign.
 */
export class SchedulerWorker extends PredecessorElection {
  private readonly sched: SchedulerOptions;
  private readonly layout: SchedulerLayout;
  private generation = 0;
  /** The session that has a place in the election, and the one the current worker name belongs to. */
  private joinedIn: string | null = null;
  private namedIn: string | null = null;
  private ttlChecked = false;
  private worker: string | null = null;
  /** Assignments this process has started, by worker name and job: an assignment runs once per worker name. */
  private readonly started = new Set<string>();
  private office: Office | null = null;
  private readonly assignments = new Coalesced(() => this.readAssignments(), SETTLE_MS);
  private readonly reconciler = new Coalesced(() => this.reconcileSafely(), SETTLE_MS);
  private closing = false;

  constructor(opts: RecipeOptions, io: RecipeIO, memberData: string) {
    super(opts, io, memberData);
    if (!opts.scheduler) throw new Error('the scheduler workload needs its options');
    this.sched = opts.scheduler;
    this.layout = schedulerLayout(opts.scheduler.root);
  }

  /**
   * Once per session: a place in the election, then a worker name. `step` runs this again after a lost reply, so
   * each part is done only if this session has not done it yet (a second election znode of one session would be
   * an orphan that everyone behind it waits on; a second name, a worker nobody runs).
   */
  protected override async join(): Promise<void> {
    const l = this.layout;
    const session = this.zk.sessionId;
    for (const p of [l.workers, l.jobs, l.assignments, l.status]) await this.zk.mkdirp(p);
    if (this.joinedIn !== session) {
      await this.joinElection();
      this.joinedIn = session;
    }
    await this.register(session);
  }

  /** A new name per session (the seed's re-registration after a lost session): its queue first, then itself. */
  private async register(session: string | null): Promise<void> {
    if (this.namedIn !== session) {
      this.generation += 1;
      this.namedIn = session;
    }
    const worker = workerName(this.opts.id, this.generation);
    await this.ensureQueue(worker);
    if (!this.ttlChecked) await this.checkTtl(worker);
    await this.zk.create(`${this.layout.workers}/${worker}`, JSON.stringify({ contender: this.opts.id, pid: process.pid }), 'ephemeral').catch((e: unknown) => {
      if (!isCode(e, 'NODEEXISTS')) throw e; // this session's own, from a reply that was lost
    });
    this.worker = worker;
    this.io.log('worker-registered', { worker });
    this.assignments.request();
  }

  /**
   * Status nodes are TTL znodes: an ensemble without extendedTypesEnabled (one outside the lab) refuses them, and
   * every job would stay assigned for ever. Found out once, before taking any job: the worker leaves, saying why.
   */
  private async checkTtl(worker: string): Promise<void> {
    // Beside the scheduler's folders, not in status/: a drill's sampler judges every node there as a job's status.
    const probe = `${this.layout.root === '/' ? '' : this.layout.root}/.ttl-probe-${worker}`;
    try {
      await this.zk.create(probe, '', 'persistent-ttl', 1000);
    } catch (e) {
      if (e instanceof ZkError && (e.retryable || isCode(e, 'NODEEXISTS', 'SESSIONEXPIRED', 'CLOSED'))) throw e;
      this.io.log('error', { message: `this ensemble refuses TTL znodes (${(e as Error).message}); the scheduler's status nodes need ZooKeeper >= 3.5.4 with zookeeper.extendedTypesEnabled=true` });
      process.exitCode = 2;
      await this.stop();
      return;
    }
    await this.zk.delete(probe).catch(() => undefined);
    this.ttlChecked = true;
  }

  private async ensureQueue(worker: string): Promise<void> {
    await this.zk.create(`${this.layout.assignments}/${worker}`, '', 'persistent').catch((e: unknown) => {
      if (!isCode(e, 'NODEEXISTS')) throw e;
    });
  }

  /** Lists this worker's assignments (watched) and starts each one not started yet. */
  private async readAssignments(): Promise<void> {
    const worker = this.worker;
    if (!worker || this.closing) return;
    const dir = `${this.layout.assignments}/${worker}`;
    let jobs: string[];
    try {
      jobs = await this.zk.getChildren(dir, (ev) => {
        if (this.worker !== worker) return;
        if (ev.type === 'children' || ev.type === 'deleted') this.assignments.request();
      });
    } catch (e) {
      if (this.worker !== worker) return;
      if (isCode(e, 'NONODE')) {
        // A leader tidied the queue away in the moment between its creation and this worker's registration.
        await this.ensureQueue(worker).catch(() => undefined);
        this.assignments.request();
        return;
      }
      if (e instanceof ZkError && e.retryable) {
        await this.connectedAgain().catch(() => undefined);
        if (this.worker === worker) this.assignments.request();
        return;
      }
      if (!isCode(e, 'SESSIONEXPIRED', 'CLOSED')) this.io.log('error', { message: `reading ${dir}: ${(e as Error).message}` });
      return;
    }
    for (const job of [...jobs].sort()) {
      const key = `${worker}/${job}`;
      if (this.started.has(key)) continue;
      this.started.add(key);
      void this.execute(worker, job);
    }
  }

  /**
   * Runs one assignment to its end: read it, run it, write the TTL status, delete the assignment last (a worker
   * that dies before that leaves the job assigned, and the leader gives it to another). The job's own run is not
   * tied to the session: a worker cut off mid-job finishes it and reports it, as the seed's worker does.
   */
  private async execute(worker: string, job: string): Promise<void> {
    const assignment = `${this.layout.assignments}/${worker}/${job}`;
    const read = await this.persist(`read ${assignment}`, () => this.zk.getData(assignment));
    if (read === 'gone') this.started.delete(`${worker}/${job}`); // taken back meanwhile: nothing to run
    if (read === 'gone' || read === 'stopped') return;
    const data = decodeJobData(read.data);
    const startedAt = Date.now();
    const attempt = data?.attempt ?? 0;
    this.io.log('job-started', { job, worker, attempt, kind: data?.spec.kind ?? 'unreadable' });
    const outcome = data ? await runJob(data.spec) : { ok: false as const, error: 'not a job: the assignment holds no job this scheduler wrote' };
    const endedAt = Date.now();
    this.io.log('job-finished', { job, worker, attempt, ...outcome, ms: endedAt - startedAt });
    await this.io.failpoint('before-status');
    const status = encodeStatusData({ job, worker, contender: this.opts.id, attempt, ...outcome, startedAt, endedAt, ttlMs: this.sched.statusTtlMs });
    const created = await this.persist(`create status of ${job}`, async () => {
      const create = () => this.zk.create(`${this.layout.status}/${job}`, status, 'persistent-ttl', this.sched.statusTtlMs).then(() => true);
      const existed = (e: unknown) => {
        if (isCode(e, 'NODEEXISTS')) return false;
        throw e;
      };
      try {
        return await create().catch(existed);
      } catch (e) {
        if (!isCode(e, 'NONODE')) throw e;
        // Someone deleted status/ itself: make it again rather than leave the job assigned for ever.
        await this.zk.mkdirp(this.layout.status);
        return await create().catch(existed);
      }
    });
    if (created === 'stopped' || created === 'gone') return;
    this.io.log('job-status', { job, worker, attempt, created, ttlMs: this.sched.statusTtlMs });
    await this.io.failpoint('after-status-before-unassign');
    await this.persist(`delete ${assignment}`, () => this.zk.delete(assignment));
    this.started.delete(`${worker}/${job}`);
  }

  /**
   * Retries `op` across connection losses and new sessions until it is done; 'gone' when its znode does not exist.
   * Used for a job's own steps, which belong to the job, not to the session they began in.
   */
  private async persist<T>(what: string, op: () => Promise<T>): Promise<T | 'gone' | 'stopped'> {
    for (let attempt = 1; ; attempt++) {
      if (this.closing) return 'stopped';
      try {
        return await op();
      } catch (e) {
        if (isCode(e, 'NONODE')) return 'gone';
        const transient = e instanceof ZkError && (e.retryable || isCode(e, 'SESSIONEXPIRED', 'CLOSED', 'SESSIONMOVED'));
        if (!transient) {
          this.io.log('error', { message: `${what}: ${(e as Error).message}` });
          return 'stopped';
        }
        if (attempt === 1 || attempt % 20 === 0) this.io.log('retry', { op: what, message: (e as Error).message, attempt });
        await sleep(Math.min(1000, 50 * attempt));
      }
    }
  }

  protected override onLeading(token: number): void {
    if (this.office?.token !== token) {
      this.office?.multi.close();
      this.office = { token, multi: this.io.openMulti(), settled: false, armed: new Map() };
    }
    this.reconciler.request();
  }

  protected override async onLeadershipEnd(): Promise<void> {
    this.onLeadershipDropped();
  }

  protected override onLeadershipDropped(): void {
    this.office?.multi.close();
    this.office = null;
  }

  private async reconcileSafely(): Promise<void> {
    const office = this.office;
    if (!office || this.closing) return;
    try {
      await this.reconcile(office);
    } catch (e) {
      if (this.office !== office) return;
      if (e instanceof ZkError && e.retryable) {
        await this.connectedAgain().catch(() => undefined);
      } else if (isCode(e, 'SESSIONEXPIRED', 'CLOSED')) {
        return; // the expiry ends this leadership
      } else {
        this.io.log('error', { message: `reconcile: ${(e as Error).message}` });
        await sleep(500);
      }
      if (this.office === office) this.reconciler.request();
    }
  }

  /**
   * What the leader does on taking office and on every change of jobs/ or workers/: assignments of workers that
   * are gone go back to the queue (or, when their status exists, are only tidied away); each queued job is assigned
   * to a live worker. The first pass of a term also drops queued jobs that are already assigned or done (left by a
   * predecessor that died mid-step); after it, the multis keep the queue and the assignments apart.
   */
  private async reconcile(office: Office): Promise<void> {
    const l = this.layout;
    const again = (): void => {
      if (this.office === office) this.reconciler.request();
    };
    const workers = new Set(await this.listWatched(office, l.workers));
    let todo = (await this.listWatched(office, l.jobs)).sort();
    const full = !office.settled;
    const assigned = new Map<string, string>();
    for (const w of await this.zk.getChildren(l.assignments)) {
      if (workers.has(w) && !full) continue;
      const jobs = await this.zk.getChildren(`${l.assignments}/${w}`).catch((e: unknown) => (isCode(e, 'NONODE') ? [] : Promise.reject(e)));
      if (workers.has(w)) for (const j of jobs) assigned.set(j, w);
      else await this.takeBack(office, w, jobs);
    }
    if (full) todo = await this.withoutFinished(todo, assigned);
    office.settled = true;
    const live = sortWorkers([...workers]);
    if (todo.length === 0 || live.length === 0) return;
    // The multi's session may be on a server behind this one: let it catch up before it reads the jobs listed here.
    await office.multi.sync(l.jobs);
    const picks = await this.pick(office, live, todo.length);
    if (!picks) return;
    const batches: { job: string; worker: string }[][] = [];
    for (let i = 0; i < todo.length; i += ASSIGN_BATCH) batches.push(todo.slice(i, i + ASSIGN_BATCH).map((job, k) => ({ job, worker: picks[i + k]! })));
    const retry = await inBatches(batches, BATCHES_IN_FLIGHT, (batch) => (this.office === office ? this.assign(office, batch) : Promise.resolve(false)));
    if (retry.some(Boolean)) {
      await sleep(100);
      again();
    }
  }

  /**
   * A watched listing; the watch is set once and again only after it fired (each watcher given to the native
   * client stays registered until its watch fires: one per pass would pile up while workers/ stays the same).
   */
  private async listWatched(office: Office, path: string): Promise<string[]> {
    if (office.armed.has(path)) return this.zk.getChildren(path);
    const token = {};
    office.armed.set(path, token);
    try {
      return await this.zk.getChildren(path, () => {
        if (office.armed.get(path) === token) office.armed.delete(path);
        if (this.office === office) this.reconciler.request();
      });
    } catch (e) {
      if (office.armed.get(path) === token) office.armed.delete(path);
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
    const done = await inBatches(pending, ASSIGN_BATCH, (job) => this.zk.exists(`${this.layout.status}/${job}`));
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
  private async pick(office: Office, live: readonly string[], n: number): Promise<string[] | null> {
    if (this.sched.strategy === 'random') return Array.from({ length: n }, () => live[Math.floor(Math.random() * live.length)]!);
    const rotation = this.layout.rotation;
    for (;;) {
      let start: number;
      let version: number;
      try {
        const r = await office.multi.getData(rotation);
        start = Number(r.data.toString()) || 0;
        version = r.version;
      } catch (e) {
        if (!isCode(e, 'NONODE')) throw e;
        await office.multi.commit([{ op: 'create', path: rotation, data: '0' }]).catch((err: unknown) => {
          if (!isCode(err, 'NODEEXISTS')) throw err;
        });
        continue;
      }
      if (!this.ownNode) return null;
      try {
        await office.multi.commit([{ op: 'check', path: this.ownNode }, { op: 'set', path: rotation, data: String(start + n), version }]);
      } catch (e) {
        if (e instanceof MultiError && e.index === 0 && isCode(e, 'NONODE')) {
          await this.endLeadership('resigned', 'fenced: its election znode is gone');
          this.schedule();
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
  private async assign(office: Office, batch: readonly { job: string; worker: string }[]): Promise<boolean> {
    const l = this.layout;
    let missing = false;
    const items = (
      await Promise.all(
        batch.map(async ({ job, worker }) => {
          try {
            // On the multi's session: the worker's own writes queue on this.zk, and a session answers in order.
            const data = decodeJobData((await office.multi.getData(`${l.jobs}/${job}`)).data);
            const body = encodeJobData(data ?? { spec: { kind: 'fail', message: 'unreadable job' }, submittedAt: Date.now(), attempt: 1 });
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
    await this.io.failpoint('before-assign');
    if (this.office !== office || !this.ownNode) return false;
    const ops: MultiOp[] = [{ op: 'check', path: this.ownNode }];
    for (const w of new Set(items.map((i) => i.worker))) ops.push({ op: 'check', path: `${l.workers}/${w}` });
    for (const i of items) ops.push({ op: 'create', path: `${l.assignments}/${i.worker}/${i.job}`, data: i.body }, { op: 'delete', path: `${l.jobs}/${i.job}` });
    try {
      await office.multi.commit(ops);
    } catch (e) {
      if (!(e instanceof MultiError)) throw e;
      if (e.index === 0 && isCode(e, 'NONODE')) {
        // Our election znode is gone: no longer the leader, whatever this process believed.
        await this.endLeadership('resigned', 'fenced: its election znode is gone');
        this.schedule();
        return false;
      }
      if (e.retryable || isCode(e, 'SESSIONEXPIRED')) return true; // the next commit opens a new multi session
      if (items.length > 1) {
        const again = await Promise.all(items.map((i) => this.assign(office, [i])));
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
    for (const i of items) this.io.log('job-assigned', { job: i.job, worker: i.worker, attempt: i.attempt, strategy: this.sched.strategy });
    await this.io.failpoint('after-assign');
    return missing;
  }

  /** The jobs of a worker that is gone: back to the queue (next attempt), or tidied away if already done. */
  private async takeBack(office: Office, worker: string, jobs: readonly string[]): Promise<void> {
    const l = this.layout;
    for (const job of [...jobs].sort()) {
      if (this.office !== office || !this.ownNode) return;
      const assignment = `${l.assignments}/${worker}/${job}`;
      if (await this.zk.exists(`${l.status}/${job}`)) {
        await this.zk.delete(assignment).catch((e: unknown) => {
          if (!isCode(e, 'NONODE')) throw e;
        });
        continue;
      }
      let data: JobData | null;
      try {
        data = decodeJobData((await this.zk.getData(assignment)).data);
      } catch (e) {
        if (isCode(e, 'NONODE')) continue;
        throw e;
      }
      const attempt = (data?.attempt ?? 0) + 1;
      const body = encodeJobData(data ? { ...data, attempt } : { spec: { kind: 'fail', message: 'unreadable job' }, submittedAt: Date.now(), attempt });
      try {
        await office.multi.commit([
          { op: 'check', path: this.ownNode },
          { op: 'create', path: `${l.jobs}/${job}`, data: body },
          { op: 'delete', path: assignment },
        ]);
        this.io.log('job-requeued', { job, from: worker, attempt });
      } catch (e) {
        if (!(e instanceof MultiError)) throw e;
        if (e.index === 0 || e.retryable || isCode(e, 'SESSIONEXPIRED')) return; // the next pass tries again
        if (e.index === 1) {
          // Queued already (a copy): the assignment alone goes.
          await this.zk.delete(assignment).catch(() => undefined);
          continue;
        }
        if (e.index === 2) continue;
        throw e;
      }
    }
    await this.zk.delete(`${l.assignments}/${worker}`).catch((e: unknown) => {
      if (!isCode(e, 'NONODE', 'NOTEMPTY')) throw e;
    });
  }

  private async drop(job: string, reason: string): Promise<void> {
    await this.zk.delete(`${this.layout.jobs}/${job}`).catch((e: unknown) => {
      if (!isCode(e, 'NONODE')) throw e;
    });
    this.io.log('job-dropped', { job, reason });
  }

  override async stop(): Promise<void> {
    this.closing = true;
    this.onLeadershipDropped();
    await super.stop();
  }
}

/** `fn` over `items`, at most `width` at a time; results in order. After a failure no new item starts; all in flight end before it is thrown. */
async function inBatches<T, R>(items: readonly T[], width: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
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
