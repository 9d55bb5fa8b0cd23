import type { Argv, CommandModule } from 'yargs';
import { evenCountWarning } from '../../ensemble/config.js';
import { withOptions } from '../options.js';
import type { CommandContext, GlobalArgs } from '../context.js';

interface GenerateArgs extends GlobalArgs {
  servers?: string;
  out: string;
  tick?: string;
  hosts?: string;
  'base-port'?: string;
}

export function configCommand(ctx: CommandContext): CommandModule<GlobalArgs, GlobalArgs> {
  return {
    command: 'config',
    describe: 'Generate ZooKeeper configuration files',
    builder: (y: Argv<GlobalArgs>) =>
      y
        .command<GenerateArgs>({
          command: 'generate',
          describe: 'Write one zoo.cfg and myid per server (a local lab, or real hosts with --hosts)',
          builder: (b) =>
            withOptions(b, {
              servers: {
                alias: 'n',
                type: 'string',
                describe: 'number of servers (default 3, or the number of --hosts)',
              },
              out: { type: 'string', demandOption: true, describe: 'directory to write into' },
              tick: {
                type: 'string',
                describe: 'tickTime, a duration (default 200ms locally, 2s with --hosts)',
              },
              hosts: {
                type: 'string',
                describe: 'comma-separated hosts of a real ensemble (ports 2181/2888/3888)',
              },
              'base-port': {
                type: 'string',
                describe: 'first port for a local lab (default 2181)',
              },
            }) as Argv<GenerateArgs>,
          handler: async (a) => {
            const { generateConfigs } = await import('../../ensemble/generate.js');
            const written = generateConfigs({
              servers: a.servers,
              out: a.out,
              tickMs: a.tick,
              hosts: a.hosts,
              basePort: a['base-port'],
            });
            for (const w of written) ctx.out(`${w.server}: ${w.files.join(', ')}${w.note ? `  (${w.note})` : ''}`);
            const warning = evenCountWarning(written.length);
            if (warning) ctx.err(warning);
          },
        })
        .demandCommand(1, 'name a config command: generate'),
    handler: () => undefined,
  };
}
