import type { ContenderEvent } from '../../../src/lab/events.js';
import { ev, joinAll, lab } from './fixtures.js';

/** Three scheduler workers, c1 leading, each registered as <id>-1. */
export const workers: ContenderEvent[] = [
  ...joinAll(0, ['c1', 'c2', 'c3']),
  ev(50, 'c1', 'leader', { token: 10 }),
  ...['c1', 'c2', 'c3'].map((id) => ev(60, id, 'worker-registered', { worker: `${id}-1` })),
];

export const submitted = (t: number, ...jobs: string[]) =>
  lab(t, 'jobs-submitted', { path: '/scheduler', jobs, kind: 'sleep' });

/** A job's whole life on one worker: assigned, started, finished and its status written. */
export function ran(job: string, id: string, from: number, to: number, attempt = 1): ContenderEvent[] {
  const worker = `${id}-1`;
  return [
    ev(from, 'c1', 'job-assigned', { job, worker, attempt, strategy: 'round-robin' }),
    ev(from + 5, id, 'job-started', { job, worker, attempt, kind: 'sleep' }),
    ev(to, id, 'job-finished', { job, worker, attempt, ok: true, ms: to - from - 5 }),
    ev(to + 5, id, 'job-status', { job, worker, attempt, created: true, ttlMs: 30_000 }),
  ];
}
