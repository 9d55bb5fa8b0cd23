import { plural } from '../../text.js';
import type { Argv, CommandModule } from 'yargs';
import chalk from 'chalk';
import { setTimeout as sleep } from 'node:timers/promises';
import { withOptions } from '../options.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { labPaths } from '../context.js';
import { table } from '../views/table.js';
import { UsageError } from '../../errors.js';
import { formatDuration } from '../../duration.js';
import { oneOf, wholeNumber } from '../../validate.js';
import { durationArg, znodePathArg } from '../../validate.js';
import { JOB_KINDS, type JobSpec } from '../../recipes/scheduler-layout.js';
import type { JobsStatus } from '../../contenders/jobs.js';

interface JobsArgs extends GlobalArgs {
  count?: unknown;
  kind?: string;
  ms?: string;
  args?: string;
  path?: string;
  json?: boolean;
  watch?: boolean;
}

const SUBMIT_EXAMPLE = 'e.g. `zklab jobs submit 10 --kind sleep --ms 200`';

/** A job from the command line: the same data a worker will read, validated here so a bad one never reaches a queue. */
export function jobSpecFromArgs(a: Pick<JobsArgs, 'kind' | 'ms' | 'args'>): JobSpec {
  const kind = oneOf(a.kind, JOB_KINDS, 'job kind', 'sleep');
  if (kind !== 'sleep' && a.ms !== undefined)
    throw new UsageError(`--ms applies to sleep jobs, not ${kind}`, SUBMIT_EXAMPLE);
  if (kind !== 'sum' && a.args !== undefined)
    throw new UsageError(`--args applies to sum jobs, not ${kind}`, 'e.g. `zklab jobs submit 1 --kind sum --args 2,3`');
  if (kind === 'sleep') {
    if (a.ms === undefined) return { kind, ms: 200 };
    // 0 is a job that takes no time (the benchmark's): only a negative or malformed duration is refused.
    return { kind, ms: durationArg(a.ms, '--ms', { min: 0, max: 3600_000 }, SUBMIT_EXAMPLE) };
  }
  if (kind === 'sum') {
    const args = (a.args ?? '2,3').split(',').map((x) => Number(x.trim()));
    if (args.some((n) => !Number.isFinite(n)) || ((a.args ?? '').trim() === '' && a.args !== undefined)) {
      throw new UsageError(`--args "${a.args}" is not a list of numbers`, 'e.g. --args 2,3');
    }
    return { kind, args };
  }
  return { kind: 'fail' };
}

function renderStatus(s: JobsStatus): string {
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

/**
 * `q` (or Ctrl-C, which a raw terminal delivers as a key) ends a watch; so does the command's own signal. Reads
 * stdin only while the watch runs, and gives the terminal back as it was.
 */
function quitOnKey(outer: AbortSignal): { signal: AbortSignal; release: () => void } {
  const stop = new AbortController();
  const signal = AbortSignal.any([outer, stop.signal]);
  const stdin = process.stdin;
  const raw = stdin.isTTY === true;
  const onData = (chunk: Buffer) => {
    const keys = chunk.toString();
    if (keys.includes('q') || keys.includes('\u0003')) stop.abort();
  };
  if (raw) stdin.setRawMode(true);
  stdin.on('data', onData);
  stdin.resume();
  return {
    signal,
    release: () => {
      stdin.off('data', onData);
      if (raw) stdin.setRawMode(false);
      stdin.pause();
    },
  };
}

export function jobsCommand(ctx: CommandContext): CommandModule<GlobalArgs, JobsArgs> {
  return {
    command: 'jobs',
    describe: 'Submit jobs to the task scheduler workload and see where each one is',
    builder: (y: Argv<GlobalArgs>) =>
      y
        .command({
          command: 'submit <count>',
          describe: 'Queue jobs: JSON data a worker interprets (sleep, sum, fail), never code',
          builder: (b) =>
            withOptions(
              b,
              {
                kind: { type: 'string', describe: `${JOB_KINDS.join(', ')} (default sleep)` },
                ms: { type: 'string', describe: 'sleep: how long the job takes (default 200ms)' },
                args: { type: 'string', describe: 'sum: the numbers, e.g. 2,3' },
                path: {
                  type: 'string',
                  describe: "the scheduler's root (default: the lab's workers', else /scheduler)",
                },
                json: { type: 'boolean', default: false },
              },
              { count: { type: 'string', demandOption: true } },
            ) as Argv<JobsArgs>,
          handler: async (a) => {
            const count = wholeNumber(a.count, 'the job count', 1, 100_000, SUBMIT_EXAMPLE);
            const spec = jobSpecFromArgs(a);
            const path = a.path === undefined ? undefined : znodePathArg(a.path);
            const { submitJobs } = await import('../../contenders/jobs.js');
            const r = await submitJobs(labPaths(a), { count, spec, ...(path ? { path } : {}) });
            if (a.json) {
              ctx.out(JSON.stringify({ path: r.root, jobs: r.jobs, workers: r.workers }, null, 2));
              return;
            }
            ctx.out(r.jobs.join('\n'));
            ctx.err(
              r.workers === 0
                ? `${plural(r.jobs.length, 'job')} queued at ${r.root}/jobs; no worker is running, so they wait until one is ` +
                    '(`zklab contenders spawn 3 --workload scheduler`)'
                : `${plural(r.jobs.length, 'job')} queued at ${r.root}/jobs for ${plural(r.workers, 'worker')}; ` +
                    '`zklab jobs status --watch` follows them',
            );
          },
        })
        .command({
          command: 'status',
          describe: "Pending, assigned and done jobs from the znodes, runs per job from the workers' logs",
          builder: (b) =>
            withOptions(b, {
              path: {
                type: 'string',
                describe: "the scheduler's root (default: the lab's workers', else /scheduler)",
              },
              watch: {
                type: 'boolean',
                default: false,
                describe: 'keep showing it, every second, until Ctrl-C',
              },
              json: { type: 'boolean', default: false },
            }) as Argv<JobsArgs>,
          handler: async (a) => {
            const path = a.path === undefined ? undefined : znodePathArg(a.path);
            const { jobsStatus } = await import('../../contenders/jobs.js');
            const show = async () => {
              const s = await jobsStatus(labPaths(a), path);
              return a.json ? JSON.stringify(s, null, 2) : renderStatus(s);
            };
            const keys = ctx.isTTY && !a.json && a.watch ? '\nq quit (or Ctrl-C)' : '';
            ctx.out((await show()) + keys);
            if (!a.watch) return;
            const quit = quitOnKey(ctx.signal);
            try {
              while (!quit.signal.aborted) {
                await sleep(1000, undefined, { signal: quit.signal }).catch(() => undefined);
                if (quit.signal.aborted) break;
                // A watch outlives a fault: a moment ZooKeeper cannot answer is shown, and the next second tries again.
                const text = await show().catch((e: unknown) => {
                  if (e instanceof UsageError) throw e;
                  const at = new Date().toISOString().slice(11, 23);
                  return `${at} cannot read the scheduler now: ${(e as Error).message}; trying again`;
                });
                ctx.out(ctx.isTTY && !a.json ? `\x1b[H\x1b[2J${text}${keys}` : text);
              }
            } finally {
              quit.release();
            }
          },
        })
        .demandCommand(1, 'name a jobs command: submit or status'),
    handler: () => undefined,
  };
}
