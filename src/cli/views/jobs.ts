import chalk from 'chalk';
import { formatDuration } from '../../duration.js';
import { plural } from '../../text.js';
import type { JobsStatus, SubmitResult } from '../../contenders/jobs.js';
import { table } from './table.js';

/** Where each job of a scheduler is: pending, assigned and done, each a table. */
export function renderJobsStatus(s: JobsStatus): string {
  const out: string[] = [];
  const runs = (job: string) => s.executions[job] ?? 0;
  const workers = `${plural(s.workers.length, 'worker')} (${s.workers.map((w) => `${w.worker}: ${w.assigned}`).join(', ') || 'none'})`;
  out.push(
    `${chalk.bold(s.root)}: ${s.pending.length} pending, ${s.assigned.length} assigned, ${s.done.length} done; ${workers}`,
  );
  if (s.pending.length > 0) {
    out.push('', chalk.bold('pending'));
    out.push(
      table(
        ['job', 'attempt', 'waiting'],
        s.pending.map((p) => [
          p.job,
          String(p.attempt ?? '?'),
          p.waitingMs === null ? '?' : formatDuration(p.waitingMs, 1),
        ]),
      ),
    );
  }
  if (s.assigned.length > 0) {
    out.push('', chalk.bold('assigned'));
    out.push(
      table(
        ['job', 'worker', 'since', 'attempt', 'runs'],
        s.assigned.map((a) => [
          a.job,
          a.live ? a.worker : chalk.red(`${a.worker} (gone)`),
          formatDuration(a.sinceMs, 1),
          String(a.attempt ?? '?'),
          String(runs(a.job)),
        ]),
      ),
    );
  }
  if (s.done.length > 0) {
    out.push('', chalk.bold('done'));
    out.push(
      table(
        ['job', 'outcome', 'worker', 'attempt', 'runs', 'status TTL left'],
        s.done.map((d) => [
          d.job,
          d.ok === null
            ? '?'
            : d.ok
              ? chalk.green(d.result === null ? 'ok' : `ok = ${d.result}`)
              : chalk.red(`failed: ${d.error ?? ''}`),
          d.worker ?? '?',
          String(d.attempt ?? '?'),
          runs(d.job) > 1 ? chalk.yellow(String(runs(d.job))) : String(runs(d.job)),
          d.expiresInMs === null
            ? "unknown (not a worker's status)"
            : `${formatDuration(d.expiresInMs, 1)} of ${formatDuration(d.ttlMs ?? 0, 1)}`,
        ]),
      ),
    );
  }
  return out.join('\n');
}

/** What `jobs submit` says beside the job names: where they wait, and for whom. */
export function renderSubmitted(r: SubmitResult): string {
  return r.workers === 0
    ? `${plural(r.jobs.length, 'job')} queued at ${r.root}/jobs; no worker is running, so they wait until one is ` +
        '(`zklab contenders spawn 3 --workload scheduler`)'
    : `${plural(r.jobs.length, 'job')} queued at ${r.root}/jobs for ${plural(r.workers, 'worker')}; ` +
        '`zklab jobs status --watch` follows them';
}

/** A moment of a watch ZooKeeper could not answer. */
export function renderWatchFailure(r: { readonly failed: string; readonly at: number }): string {
  return `${new Date(r.at).toISOString().slice(11, 23)} cannot read the scheduler now: ${r.failed}; trying again`;
}
