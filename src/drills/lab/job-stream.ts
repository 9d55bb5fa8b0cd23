import { setTimeout as sleep } from 'node:timers/promises';
import { submitJobs } from '../../contenders/jobs.js';
import type { LabPaths } from '../../lab/paths.js';
import type { JobSpec } from '../../recipes/scheduler-layout.js';

/** How a stream ended: all submitted, stopped early (the run was aborted or broke), or a submission failed. */
export interface StreamEnd {
  readonly submitted: number;
  readonly error?: string;
}

/**
 * A jobs step with `over`: `count` jobs submitted evenly over `overMs` in the background (job i is due at
 * i × overMs / count), so that the steps after it happen while jobs keep coming. Whatever is due when a submission
 * returns goes in the next one, so a slow ensemble delays the stream without making it longer than it must be.
 */
export class JobStream {
  private readonly stopper = new AbortController();
  private submitted = 0;
  private running = true;
  /** Settles when the stream ends, however it ends; never rejects. */
  readonly done: Promise<StreamEnd>;

  constructor(
    paths: LabPaths,
    private readonly count: number,
    spec: JobSpec,
    private readonly overMs: number,
    runSignal: AbortSignal,
    private readonly submit: typeof submitJobs = submitJobs,
  ) {
    const signal = AbortSignal.any([runSignal, this.stopper.signal]);
    this.done = this.run(paths, spec, signal).finally(() => {
      this.running = false;
    });
  }

  /** Still submitting. */
  get active(): boolean {
    return this.running;
  }

  /** Submits nothing more; `done` settles once a submission under way has returned. */
  stop(): Promise<StreamEnd> {
    this.stopper.abort();
    return this.done;
  }

  private async run(paths: LabPaths, spec: JobSpec, signal: AbortSignal): Promise<StreamEnd> {
    const start = Date.now();
    const dueAt = (i: number) => start + (i * this.overMs) / this.count;
    try {
      while (this.submitted < this.count && !signal.aborted) {
        const now = Date.now();
        let due = this.submitted;
        while (due < this.count && dueAt(due) <= now) due++;
        if (due > this.submitted) {
          await this.submit(paths, { count: due - this.submitted, spec });
          this.submitted = due;
        } else {
          await sleep(dueAt(due) - now, undefined, { signal });
        }
      }
      return { submitted: this.submitted };
    } catch (e) {
      if (signal.aborted) return { submitted: this.submitted };
      return { submitted: this.submitted, error: (e as Error).message };
    }
  }
}
