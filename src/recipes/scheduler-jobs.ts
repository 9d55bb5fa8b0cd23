import { setTimeout as sleep } from 'node:timers/promises';
import type { JobSpec } from './scheduler-layout.js';

export type JobOutcome =
  | { readonly ok: true; readonly result?: number }
  | { readonly ok: false; readonly error: string };

/** What a worker does with a job: interpret its data. Nothing in a job is ever run as code or as a command. */
export async function runJob(spec: JobSpec): Promise<JobOutcome> {
  switch (spec.kind) {
    case 'sleep':
      if (spec.ms > 0) await sleep(spec.ms);
      return { ok: true };
    case 'sum':
      return { ok: true, result: spec.args.reduce((a, b) => a + b, 0) };
    case 'fail':
      return { ok: false, error: spec.message ?? 'failed, as the job asked' };
  }
}
