import { formatDuration, formatOffset } from '../../duration.js';
import type { LabEventName } from '../../lab/events.js';
import type { CheckDetail, CheckResult, Measurement } from './check-types.js';
import type { History } from './history.js';
import { describeWhereabouts, jobFacts } from './jobs.js';
import { duration, strict } from '../core/zod-helpers.js';
import { type Checker, needsScheduler } from './checker.js';

export const DEFAULT_LOST_JOB_MS = 30_000;

/** The lab events fault steps write: after each, the scheduler may need a while to put things right. */
const FAULT_EVENTS: ReadonlySet<string> = new Set<LabEventName>([
  'contender-killed',
  'contender-paused',
  'contender-resumed',
  'contender-stopped',
  'contenders-spawned',
  'server-killed',
  'server-paused',
  'server-resumed',
  'server-restarted',
  'ensemble-repaired',
  'partition',
  'heal',
  'delay',
]);

/** When something disrupted the scheduler: every fault step, and every failpoint that fired. Sorted. */
export function faultTimes(h: History): number[] {
  return [
    ...h.lab.filter((e) => FAULT_EVENTS.has(e.event)).map((e) => e.t),
    ...h.events.filter((e) => e.event === 'failpoint').map((e) => e.t),
  ].sort((a, b) => a - b);
}

/**
 * From when a job's bound runs: its submission, or a fault that came while the job was still within its bound (the
 * scheduler may need a while to put things right after it). A fault that comes once the job is already late excuses
 * nothing: it began after what it would be judged against.
 */
function boundFrom(submittedAt: number, until: number, faults: readonly number[], within: number): number {
  let from = submittedAt;
  for (const t of faults) {
    if (t < from || t > until) continue;
    if (t > from + within) break;
    from = t;
  }
  return from;
}

/**
 * At-least-once: every job submitted gets its status within `within` of its submission, the bound starting again at
 * each fault that came while the job was still within it. A job with no status at the end is lost, named with the
 * last place it was seen.
 */
export function checkNoLostJobs(h: History, options: { readonly within?: number } = {}): CheckResult {
  const within = options.within ?? DEFAULT_LOST_JOB_MS;
  const jobs = jobFacts(h);
  if (jobs.length === 0) {
    const message = 'no jobs were submitted: nothing to judge (add a jobs step)';
    return {
      name: 'noLostJobs',
      passed: false,
      summary: message,
      details: [{ level: 'violation', message }],
      measurements: [],
    };
  }
  const faults = faultTimes(h);
  const at = (t: number) => formatOffset(t, h.start);
  const details: CheckDetail[] = [];
  let lost = 0;
  let late = 0;
  let slowest: { ms: number; t: number } | null = null;
  for (const j of jobs) {
    const from = boundFrom(j.submittedAt, j.statusAt ?? h.end, faults, within);
    const since = from === j.submittedAt ? `its submission at ${at(j.submittedAt)}` : `the last fault at ${at(from)}`;
    if (j.statusAt === null) {
      lost++;
      const early =
        from + within > h.end
          ? ` (the drill ended before ${formatDuration(within)} had passed since ${since}: let it run longer)`
          : '';
      details.push({
        level: 'violation',
        t: j.lastPlace?.t ?? j.submittedAt,
        message: `lost: ${describeWhereabouts(j, h.start)} has no status at the end${early}`,
      });
      continue;
    }
    const latency = Math.max(0, j.statusAt - j.submittedAt);
    if (!slowest || latency > slowest.ms) slowest = { ms: latency, t: j.statusAt };
    if (j.statusAt > from + within) {
      late++;
      details.push({
        level: 'violation',
        t: j.statusAt,
        message: `${j.job} got its status ${formatDuration(j.statusAt - from)} after ${since}, over ${formatDuration(within)}`,
      });
    }
  }
  const measurements: Measurement[] = [
    { name: 'jobs submitted', value: jobs.length, unit: 'count' },
    { name: 'jobs lost', value: lost, unit: 'count' },
    {
      name: 'slowest job, submission to status',
      value: slowest?.ms ?? null,
      unit: 'ms',
      ...(slowest ? { t: slowest.t } : {}),
    },
  ];
  const passed = lost === 0 && late === 0;
  const summary = passed
    ? `all ${jobs.length} job(s) got their status, the slowest ${formatDuration(slowest?.ms ?? 0)} after submission`
    : [
        lost > 0 ? `${lost} of ${jobs.length} job(s) lost` : '',
        late > 0 ? `${late} job(s) later than ${formatDuration(within)}` : '',
      ]
        .filter(Boolean)
        .join(', ');
  return { name: 'noLostJobs', passed, summary, details, measurements };
}

const options = strict({ within: duration().optional() });

export const noLostJobsChecker: Checker<'noLostJobs', typeof options> = {
  name: 'noLostJobs',
  options,
  needs: needsScheduler,
  run: (h, opts) => checkNoLostJobs(h, opts),
};
