import { formatOffset } from '../../duration.js';
import type { History } from './history.js';

/** One completed run of a job (a worker's `job-finished`, ok or failed). */
export interface Execution {
  readonly t: number;
  readonly contender: string;
  readonly worker: string;
  readonly attempt: number;
}

/** Where a job was last seen before it was done: the latest assignment, requeue, start, finish or drop. */
export interface Place {
  readonly t: number;
  readonly description: string;
}

/**
 * A job as the drill saw it: submitted (the lab's `jobs-submitted`), done (the first `job-status` of a worker: its
 * status znode is there), and what happened between. Jobs are told apart by name: a drill's workers share one
 * scheduler, whose queue numbers every job.
 */
export interface JobFacts {
  readonly job: string;
  readonly submittedAt: number;
  readonly statusAt: number | null;
  readonly executions: readonly Execution[];
  readonly lastPlace: Place | null;
}

/** Every job submitted in the history, in submission order. */
export function jobFacts(h: History): JobFacts[] {
  const submitted = new Map<string, number>();
  for (const e of h.lab) {
    if (e.event !== 'jobs-submitted') continue;
    for (const job of e.jobs) if (!submitted.has(job)) submitted.set(job, e.t);
  }
  const status = new Map<string, number>();
  const runs = new Map<string, Execution[]>();
  const places = new Map<string, Place>();
  for (const e of h.events) {
    switch (e.event) {
      case 'job-status':
        if (!status.has(e.job)) status.set(e.job, e.t);
        break;
      case 'job-finished':
        runs.set(e.job, [
          ...(runs.get(e.job) ?? []),
          { t: e.t, contender: e.id, worker: e.worker, attempt: e.attempt },
        ]);
        places.set(e.job, { t: e.t, description: `ran to completion on ${e.worker} (attempt ${e.attempt})` });
        break;
      case 'job-assigned':
        places.set(e.job, { t: e.t, description: `assigned to ${e.worker} (attempt ${e.attempt})` });
        break;
      case 'job-requeued':
        places.set(e.job, { t: e.t, description: `back in the queue from ${e.from} (attempt ${e.attempt} next)` });
        break;
      case 'job-started':
        places.set(e.job, { t: e.t, description: `started on ${e.worker} (attempt ${e.attempt})` });
        break;
      case 'job-dropped':
        places.set(e.job, { t: e.t, description: `dropped from the queue by ${e.id}: ${e.reason}` });
        break;
      default:
        break;
    }
  }
  return [...submitted].map(([job, submittedAt]) => ({
    job,
    submittedAt,
    statusAt: status.get(job) ?? null,
    executions: runs.get(job) ?? [],
    lastPlace: places.get(job) ?? null,
  }));
}

/** How many of the jobs are done (have their status) by t. */
export function doneBy(jobs: readonly JobFacts[], t: number): number {
  return jobs.filter((j) => j.statusAt !== null && j.statusAt <= t).length;
}

/** "job-0000000003 (last: started on c3-1 (attempt 1) at +2.1s)". */
export function describeWhereabouts(j: JobFacts, start: number): string {
  const where = j.lastPlace
    ? `${j.lastPlace.description} at ${formatOffset(j.lastPlace.t, start)}`
    : 'never assigned: still queued';
  return `${j.job} (last: ${where})`;
}

/** The first `max` of a list of names, then how many more. */
export function someOf(names: readonly string[], max = 5): string {
  return names.length <= max ? names.join(', ') : `${names.slice(0, max).join(', ')} and ${names.length - max} more`;
}
