import type { Argv, CommandModule } from 'yargs';
import { renderLabs, renderLabsDown } from '../views/labs.js';
import { withOptions } from '../options.js';
import type { CommandContext, GlobalArgs } from '../context.js';

export function labsCommand(ctx: CommandContext): CommandModule<GlobalArgs, GlobalArgs> {
  return {
    command: 'labs',
    describe: 'Every lab on this machine: long-lived ones and those owned by a running drill, demo or test',
    builder: (y: Argv<GlobalArgs>) =>
      y
        .command<GlobalArgs & { json?: boolean; wide?: boolean }>({
          command: '$0',
          describe: 'List them: status, owner, servers and contenders running, client port, age',
          builder: (b) =>
            withOptions(b, {
              json: { type: 'boolean', default: false, describe: 'print JSON' },
              wide: { type: 'boolean', default: false, describe: 'paths, ports and commands whole (wider)' },
            }),
          handler: async (a) => {
            const { listLabs } = await import('../../ensemble/labs.js');
            const labs = listLabs();
            ctx.out(a.json ? JSON.stringify(labs, null, 2) : renderLabs(labs, { wide: a.wide }));
          },
        })
        .command<GlobalArgs>({
          command: 'prune',
          describe: 'Stop and remove the labs whose owner or directory is gone (orphan or stale)',
          handler: async () => {
            const { pruneLabs } = await import('../../ensemble/labs.js');
            const pruned = await pruneLabs();
            ctx.out(
              pruned.length === 0
                ? 'nothing to prune: every listed lab has its owner and its directory'
                : pruned.map((l) => `pruned ${l.root} (${l.status}: ${l.reason})`).join('\n'),
            );
          },
        })
        .command<GlobalArgs & { target: string }>({
          command: 'down <target>',
          describe: 'Stop one lab (its directory) or every listed lab (all)',
          builder: (b) =>
            withOptions(
              b,
              {},
              { target: { type: 'string', demandOption: true, describe: 'a lab directory, or all' } },
            ) as Argv<GlobalArgs & { target: string }>,
          handler: async (a) => {
            const { labsDown } = await import('../../ensemble/labs.js');
            ctx.out(renderLabsDown(await labsDown(a.target)));
          },
        }),
    handler: () => undefined,
  };
}
