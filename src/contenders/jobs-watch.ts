import { setTimeout as sleep } from 'node:timers/promises';
import { UsageError } from '../errors.js';
import type { LabPaths } from '../lab/paths.js';
import { jobsStatus, type JobsStatus } from './jobs.js';

/** One look at a scheduler: where its jobs are, or why ZooKeeper could not say at that moment. */
export type JobsReading = { readonly status: JobsStatus } | { readonly failed: string; readonly at: number };

/**
 * A scheduler's jobs every `everyMs` until `signal` aborts. A watch outlives a fault: a moment ZooKeeper cannot
 * answer is read as a failure of that moment, and the next one tries again; a usage error (no lab, two schedulers)
 * ends it.
 */
export async function* watchJobs(
  paths: LabPaths,
  path: string | undefined,
  signal: AbortSignal,
  everyMs = 1000,
): AsyncGenerator<JobsReading> {
  while (!signal.aborted) {
    await sleep(everyMs, undefined, { signal }).catch(() => undefined);
    if (signal.aborted) return;
    let reading: JobsReading;
    try {
      reading = { status: await jobsStatus(paths, path) };
    } catch (e) {
      if (e instanceof UsageError) throw e;
      reading = { failed: (e as Error).message, at: Date.now() };
    }
    yield reading;
  }
}
