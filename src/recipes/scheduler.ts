import { setTimeout as sleep } from 'node:timers/promises';
import { isCode, ZkError } from '../zk/errors.js';
import { Coalesced } from './coalesced.js';
import { PredecessorElection } from './predecessor.js';
import { runJob } from './scheduler-jobs.js';
import {
  decodeJobData,
  encodeStatusData,
  schedulerLayout,
  workerName,
  type SchedulerLayout,
} from './scheduler-layout.js';
import { SchedulerOffice, SETTLE_MS } from './scheduler-office.js';
import type { RecipeIO, RecipeOptions, SchedulerOptions } from './types.js';
import { monotonicMs } from '../monotonic.js';
import { labNow } from '../lab/lab-time.js';

/**
 * The task scheduler of seed 001 as a contender: every worker runs the jobs assigned to it; the one the
 * predecessor election names leader also holds office (scheduler-office.ts): it assigns the queue to workers.
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
  private office: SchedulerOffice | null = null;
  private readonly assignments = new Coalesced(() => this.readAssignments(), SETTLE_MS);
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
    await this.zk
      .create(
        `${this.layout.workers}/${worker}`,
        JSON.stringify({ contender: this.opts.id, pid: process.pid }),
        'ephemeral',
      )
      .catch((e: unknown) => {
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
      this.io.log('error', {
        message:
          `this ensemble refuses TTL znodes (${(e as Error).message}); ` +
          "the scheduler's status nodes need ZooKeeper >= 3.5.4 with extendedTypesEnabled=true in zoo.cfg",
      });
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
      if (!isCode(e, 'SESSIONEXPIRED', 'CLOSED'))
        this.io.log('error', { message: `reading ${dir}: ${(e as Error).message}` });
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
    // When, on the lab's timeline (a clock fault may fake this node's own wall clock); how long, on the monotonic one.
    const startedAt = labNow();
    const began = monotonicMs();
    const attempt = data?.attempt ?? 0;
    this.io.log('job-started', { job, worker, attempt, kind: data?.spec.kind ?? 'unreadable' });
    const outcome = data
      ? await runJob(data.spec)
      : { ok: false as const, error: 'not a job: the assignment holds no job this scheduler wrote' };
    const ms = Math.round(monotonicMs() - began);
    const endedAt = startedAt + ms;
    this.io.log('job-finished', { job, worker, attempt, ...outcome, ms });
    await this.io.failpoint('before-status');
    const status = encodeStatusData({
      job,
      worker,
      contender: this.opts.id,
      attempt,
      ...outcome,
      startedAt,
      endedAt,
      ttlMs: this.sched.statusTtlMs,
    });
    const created = await this.persist(`create status of ${job}`, async () => {
      const create = () =>
        this.zk
          .create(`${this.layout.status}/${job}`, status, 'persistent-ttl', this.sched.statusTtlMs)
          .then(() => true);
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
        const transient =
          e instanceof ZkError && (e.retryable || isCode(e, 'SESSIONEXPIRED', 'CLOSED', 'SESSIONMOVED'));
        if (!transient) {
          this.io.log('error', { message: `${what}: ${(e as Error).message}` });
          return 'stopped';
        }
        if (attempt === 1 || attempt % 20 === 0)
          this.io.log('retry', { op: what, message: (e as Error).message, attempt });
        await sleep(Math.min(1000, 50 * attempt));
      }
    }
  }

  protected override onLeading(token: number): void {
    if (this.office?.token !== token) {
      this.office?.close();
      const worker = this;
      this.office = new SchedulerOffice(
        {
          get zk() {
            return worker.zk;
          },
          get ownNode() {
            return worker.ownNode;
          },
          io: this.io,
          connectedAgain: () => this.connectedAgain(),
          fenced: async () => {
            await this.endLeadership('resigned', 'fenced: its election znode is gone');
            this.schedule();
          },
        },
        this.layout,
        this.sched,
        token,
      );
    }
    this.office.request();
  }

  protected override async onLeadershipEnd(): Promise<void> {
    this.onLeadershipDropped();
  }

  protected override onLeadershipDropped(): void {
    this.office?.close();
    this.office = null;
  }

  override async stop(): Promise<void> {
    this.closing = true;
    this.onLeadershipDropped();
    await super.stop();
  }
}
