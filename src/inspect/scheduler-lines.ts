import { formatDuration } from '../duration.js';
import type { JobSpec } from '../recipes/scheduler-layout.js';
import { formatTtl } from './format.js';
import { plural } from '../text.js';
import type { SchedulerNodeFacts, SchedulerSummary, SchedulerWorker } from './snapshot.js';

/** The task scheduler in words: a note per tree row and the lines of the summary pane. Pure. */

export interface SchedulerLine {
  readonly text: string;
  readonly color?: string;
}

/** "sleep 300ms", "sum 2+3", "fail: boom". */
export function formatSpec(spec: JobSpec): string {
  switch (spec.kind) {
    case 'sleep':
      return `sleep ${formatDuration(spec.ms)}`;
    case 'sum':
      return `sum ${spec.args.join('+')}`;
    case 'fail':
      return spec.message === undefined ? 'fail' : `fail: ${spec.message}`;
  }
}

function jobText(attempt: number | null, spec: JobSpec | null): string {
  if (spec === null) return 'not a job this scheduler wrote';
  return `attempt ${attempt ?? '?'} · ${formatSpec(spec)}`;
}

/** What a row of the tree says about its znode's part in the scheduler; null for folders and election members. */
export function schedulerNote(f: SchedulerNodeFacts): SchedulerLine | null {
  switch (f.role) {
    case 'worker':
      return { text: f.contender ? `worker of ${f.contender}` : 'worker' };
    case 'queued':
      return { text: `queued · ${jobText(f.attempt, f.spec)}` };
    case 'worker-queue': {
      const count = plural(f.assigned, 'job');
      return f.registered
        ? { text: `${count} assigned` }
        : { text: `${count} assigned · worker gone`, color: f.assigned > 0 ? 'yellow' : undefined };
    }
    case 'assignment':
      return { text: jobText(f.attempt, f.spec) };
    case 'done': {
      if (f.ok === null) return { text: "not a worker's status", color: 'yellow' };
      const outcome = f.ok
        ? `ok${f.result === null ? '' : ` = ${f.result}`}`
        : `failed${f.error === null ? '' : `: ${f.error}`}`;
      return { text: `${outcome} · ${f.worker} · attempt ${f.attempt}`, color: f.ok ? 'green' : 'red' };
    }
    default:
      return null;
  }
}

/** Whether the note says all the row's data would (a job, a status, a worker's registration). */
export function noteReplacesData(f: SchedulerNodeFacts): boolean {
  switch (f.role) {
    case 'worker':
      return true;
    case 'queued':
    case 'assignment':
      return f.spec !== null;
    case 'done':
      return f.ok !== null;
    default:
      return false;
  }
}

function workerState(w: SchedulerWorker): SchedulerLine {
  if (!w.registered) return { text: 'gone', color: 'yellow' };
  if (!w.alive) return { text: 'expired', color: 'red' };
  return w.state === 'paused' ? { text: 'paused', color: 'yellow' } : { text: 'alive', color: 'green' };
}

/** "3 workers · 4 queued · 5 assigned · 12 done (11 ok, 1 failed) · leader c2 · next status ttl 3.2s". */
export function schedulerHeadline(s: SchedulerSummary): string {
  const registered = s.workers.filter((w) => w.registered).length;
  const gone = s.workers.length - registered;
  const outcomes = [
    `${s.ok} ok`,
    ...(s.failed > 0 ? [`${s.failed} failed`] : []),
    ...(s.unreadable > 0 ? [`${s.unreadable} unreadable`] : []),
  ];
  const parts = [
    `${plural(registered, 'worker')}${gone > 0 ? ` (+${gone} gone)` : ''}`,
    `${s.queued} queued`,
    `${s.assigned} assigned`,
    `${s.done} done${s.done > 0 ? ` (${outcomes.join(', ')})` : ''}`,
    s.leader ? `leader ${s.leader}` : 'no leader',
  ];
  if (s.nextExpiryMs !== null) parts.push(`next status ${formatTtl(s.nextExpiryMs)}`);
  return parts.join(' · ');
}

/** The pane: the headline, the head of the queue, then one line per worker with its assignments. */
export function schedulerLines(s: SchedulerSummary): SchedulerLine[] {
  const more = s.queued - s.nextQueued.length;
  const queue = s.queued === 0 ? 'queue empty' : `queue ${s.nextQueued.join(' ')}${more > 0 ? ` … +${more}` : ''}`;
  const workers = s.workers.map((w): SchedulerLine => {
    const state = workerState(w);
    const jobs = w.assignments.map((a) => `${a.job} (attempt ${a.attempt ?? '?'})`);
    const load = jobs.length === 0 ? 'idle' : `${jobs.length} assigned: ${jobs.join(', ')}`;
    return {
      text: `${w.worker.padEnd(6)} ${(w.contender ?? '-').padEnd(4)} ${state.text.padEnd(8)} ${load}`,
      color: state.color === 'green' ? undefined : state.color,
    };
  });
  if (workers.length === 0) workers.push({ text: 'no workers', color: 'yellow' });
  return [{ text: schedulerHeadline(s) }, { text: queue }, ...workers];
}
