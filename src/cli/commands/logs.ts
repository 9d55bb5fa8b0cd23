import type { Argv, CommandModule } from 'yargs';
import type { CommandContext, GlobalArgs } from '../context.js';
import { labPaths } from '../context.js';
import { tailFile } from '../../lab/fs.js';

interface LogsArgs extends GlobalArgs {
  name: string;
  follow?: boolean;
  lines?: number;
}

export function logsCommand(ctx: CommandContext): CommandModule<GlobalArgs, LogsArgs> {
  return {
    command: 'logs <name>',
    describe: 'Show the log of a server (zkN), a contender (cN) or the link daemon (net)',
    builder: (y: Argv<GlobalArgs>) =>
      y
        .positional('name', { type: 'string', demandOption: true })
        .option('follow', { alias: 'f', type: 'boolean', default: false, describe: 'keep printing new lines until Ctrl-C' })
        .option('lines', { type: 'number', default: 40, describe: 'how many lines of the end to show first' }) as Argv<LogsArgs>,
    handler: async (a) => {
      const { followLog, logFileFor } = await import('../../lab/logs.js');
      const file = logFileFor(labPaths(a), a.name);
      ctx.out(tailFile(file, a.lines ?? 40, 1024 * 1024));
      if (a.follow) await followLog(file, (chunk) => process.stdout.write(chunk), ctx.signal);
    },
  };
}
