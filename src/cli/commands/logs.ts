import type { Argv, CommandModule } from 'yargs';
import { withOptions } from '../options.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { labPaths } from '../context.js';
import { tailFile } from '../../lab/fs.js';
import { wholeNumber } from '../../validate.js';

const DEFAULT_LINES = 40;
const MAX_LINES = 100_000;

interface LogsArgs extends GlobalArgs {
  name: string;
  follow?: boolean;
  lines?: string;
}

export function logsCommand(ctx: CommandContext): CommandModule<GlobalArgs, LogsArgs> {
  return {
    command: 'logs <name>',
    describe: 'Show the log of a server (zkN), a contender (cN) or the link daemon (net)',
    builder: (y: Argv<GlobalArgs>) =>
      withOptions(
        y,
        {
          follow: {
            alias: 'f',
            type: 'boolean',
            default: false,
            describe: 'keep printing new lines until Ctrl-C',
          },
          lines: {
            type: 'string',
            describe: `how many lines of the end to show first, 1 to ${MAX_LINES} (default ${DEFAULT_LINES})`,
          },
        },
        { name: { type: 'string', demandOption: true } },
      ) as Argv<LogsArgs>,
    handler: async (a) => {
      const lines =
        a.lines === undefined
          ? DEFAULT_LINES
          : wholeNumber(a.lines, '--lines', 1, MAX_LINES, 'e.g. `zklab logs zk1 --lines 100`');
      const { followLog, logFileFor } = await import('../../lab/logs.js');
      const file = logFileFor(labPaths(a), a.name);
      ctx.out(tailFile(file, lines, 1024 * 1024));
      if (a.follow) await followLog(file, (chunk) => process.stdout.write(chunk), ctx.signal);
    },
  };
}
