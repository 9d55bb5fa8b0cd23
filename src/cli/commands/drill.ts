import { HOSTS_OPTIONS } from '../hosts-option.js';
import type { Argv, CommandModule } from 'yargs';
import { withOptions } from '../options.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import type { RunArgs } from './drill-run.js';
import { MAX_REPEAT } from '../../drills/core/limits.js';

export function drillCommand(ctx: CommandContext): CommandModule<GlobalArgs, GlobalArgs> {
  return {
    command: 'drill',
    describe: 'Scripted failure drills: faults, expectations and checkers on a fresh lab, with a report',
    builder: (y: Argv<GlobalArgs>) =>
      y
        .command<GlobalArgs & { json?: boolean }>({
          command: 'list',
          describe: 'The built-in drills, one per lesson',
          builder: (b) => withOptions(b, { json: { type: 'boolean', default: false, describe: 'print JSON' } }),
          handler: async (a) => (await import('./drill-run.js')).listHandler(ctx, Boolean(a.json)),
        })
        .command<GlobalArgs & { json?: boolean; markdown?: boolean }>({
          command: 'steps',
          describe: 'Every kind of step a drill file may use: what it does, its fields and examples',
          builder: (b) =>
            withOptions(b, {
              json: { type: 'boolean', describe: 'print JSON' },
              markdown: { type: 'boolean', describe: "print a Markdown table (the README's)" },
            }).conflicts('json', 'markdown'),
          handler: async (a) =>
            (await import('./drill-run.js')).stepsHandler(ctx, a.json ? 'json' : a.markdown ? 'markdown' : 'text'),
        })
        .command<RunArgs>({
          command: 'run <drill>',
          describe:
            'Run a drill (a built-in name or a drill file) on a fresh lab; exit 0 when every verdict is as expected',
          builder: (b) =>
            withOptions(
              b,
              {
                repeat: {
                  type: 'string',
                  describe: `run it N times, each on a fresh lab (1 to ${MAX_REPEAT})`,
                },
                variant: {
                  type: 'string',
                  describe: "run only this one of the drill's variants (`zklab drill check` lists them)",
                },
                seed: {
                  type: 'string',
                  describe:
                    "seeds the links' delay jitter, so a run can be repeated (run k of --repeat uses seed + k - 1)",
                },
                connect: {
                  type: 'string',
                  describe: 'run against this ensemble (HOST:PORT,…) zklab did not start: contender faults only',
                },
                net: {
                  type: 'string',
                  describe:
                    "the lab's network, whatever the drill says: proxy (link proxies) or ns (nodes; needs root)",
                },
                ...HOSTS_OPTIONS,
                json: { type: 'boolean', default: false, describe: 'print the result as JSON' },
                lab: {
                  type: 'string',
                  describe:
                    "where the run's lab goes (or ZKLAB_LAB): DIR itself if it does not exist yet, else a new " +
                    "directory under it; default: under the system's temporary directory. Removed when the run ends",
                },
                report: {
                  type: 'string',
                  describe: 'write a self-contained HTML report with a timeline to FILE.html',
                },
              },
              {
                drill: {
                  type: 'string',
                  demandOption: true,
                  describe: 'built-in name (`zklab drill list`) or path of a .yaml file',
                },
              },
            ) as Argv<RunArgs>,
          handler: async (a) => (await import('./drill-run.js')).runHandler(ctx, a),
        })
        .command<GlobalArgs & { drill: string }>({
          command: 'check <drill>',
          describe: 'Read a drill (a built-in name or a drill file) and say what it would do, without a lab',
          builder: (b) =>
            withOptions(
              b,
              {},
              {
                drill: {
                  type: 'string',
                  demandOption: true,
                  describe: 'built-in name (`zklab drill list`) or path of a .yaml file',
                },
              },
            ) as Argv<GlobalArgs & { drill: string }>,
          handler: async (a) => (await import('./drill-run.js')).checkHandler(ctx, a.drill),
        })
        .demandCommand(1, 'name a drill command: list, steps, run or check'),
    handler: () => undefined,
  };
}
