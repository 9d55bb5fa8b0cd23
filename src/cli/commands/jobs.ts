import type { Argv, CommandModule } from 'yargs';
import { withOptions } from '../options.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { labPaths } from '../context.js';
import { quitOnKey } from '../quit-key.js';
import { renderJobsStatus, renderSubmitted, renderWatchFailure } from '../views/jobs.js';
import { UsageError } from '../../errors.js';
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

const PATH_OPTION = {
  type: 'string',
  describe: "the scheduler's root (default: the lab's workers', else /scheduler)",
} as const;

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
                path: PATH_OPTION,
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
            ctx.err(renderSubmitted(r));
          },
        })
        .command({
          command: 'status',
          describe: "Pending, assigned and done jobs from the znodes, runs per job from the workers' logs",
          builder: (b) =>
            withOptions(b, {
              path: PATH_OPTION,
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
            const { watchJobs } = await import('../../contenders/jobs-watch.js');
            const show = (s: JobsStatus) => (a.json ? JSON.stringify(s, null, 2) : renderJobsStatus(s));
            const keys = ctx.isTTY && !a.json && a.watch ? '\nq quit (or Ctrl-C)' : '';
            ctx.out(show(await jobsStatus(labPaths(a), path)) + keys);
            if (!a.watch) return;
            const quit = quitOnKey(ctx.signal);
            try {
              for await (const r of watchJobs(labPaths(a), path, quit.signal)) {
                const text = 'status' in r ? show(r.status) : renderWatchFailure(r);
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
