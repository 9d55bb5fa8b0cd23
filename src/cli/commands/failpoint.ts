import type { Argv, CommandModule } from 'yargs';
import { withOptions } from '../options.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { labPaths } from '../context.js';
import { table } from '../views/table.js';
import { UsageError } from '../../errors.js';
import { failpoint } from '../../faults/kinds/failpoint.js';
import { FAILPOINT_ACTIONS, SCHEDULER_FAILPOINTS } from '../../recipes/failpoint-names.js';
import { oneOf } from '../../validate.js';

interface FailpointArgs extends GlobalArgs {
  target?: string;
  at?: string;
  action?: string;
  json?: boolean;
}

export function failpointCommand(ctx: CommandContext): CommandModule<GlobalArgs, FailpointArgs> {
  return {
    command: 'failpoint',
    describe: failpoint.description,
    builder: (y: Argv<GlobalArgs>) =>
      y
        .command({
          command: 'set <target> <at>',
          describe: `Arm a failpoint: target cN or leader; at ${SCHEDULER_FAILPOINTS.join(', ')}`,
          builder: (b) =>
            withOptions(
              b,
              {
                action: {
                  type: 'string',
                  describe:
                    'crash (SIGKILL itself, default), pause (SIGSTOP itself: `zklab resume contender cN`), ' +
                    'hang (that step never goes on; the session lives)',
                },
              },
              { target: { type: 'string', demandOption: true }, at: { type: 'string', demandOption: true } },
            ) as Argv<FailpointArgs>,
          handler: async (a) => {
            const action = oneOf(a.action, FAILPOINT_ACTIONS, 'failpoint action', 'crash');
            const { armFailpoint } = await import('../../faults/kinds/failpoint.js');
            const { target } = await armFailpoint(labPaths(a), a.target!, a.at!, action);
            ctx.out(`armed: ${target.name} will ${action} at ${a.at} (once)`);
          },
        })
        .command({
          command: 'list',
          describe: 'The failpoints armed and not yet reached',
          builder: (b) => withOptions(b, { json: { type: 'boolean', default: false } }) as Argv<FailpointArgs>,
          handler: async (a) => {
            const { listFailpoints } = await import('../../lab/failpoints.js');
            const armed = [...listFailpoints(labPaths(a))].map(([contender, fp]) => ({ contender, ...fp }));
            if (a.json) ctx.out(JSON.stringify(armed, null, 2));
            else
              ctx.out(
                armed.length === 0
                  ? 'no failpoint is armed'
                  : table(
                      ['contender', 'at', 'action'],
                      armed.map((f) => [f.contender, f.at, f.action]),
                    ),
              );
          },
        })
        .command({
          command: 'clear [target]',
          describe: 'Disarm the failpoint of a contender, or every one',
          builder: (b) => withOptions(b, {}, { target: { type: 'string' } }) as Argv<FailpointArgs>,
          handler: async (a) => {
            const { clearFailpoint, listFailpoints } = await import('../../lab/failpoints.js');
            const paths = labPaths(a);
            const armed = listFailpoints(paths);
            if (a.target !== undefined && !armed.has(a.target)) {
              throw new UsageError(
                `no failpoint is armed in "${a.target}"`,
                armed.size === 0
                  ? 'none is armed: `zklab failpoint list`'
                  : `armed in: ${[...armed.keys()].join(', ')}`,
              );
            }
            const ids = a.target ? [a.target] : [...armed.keys()];
            for (const id of ids) clearFailpoint(paths, id);
            ctx.out(ids.length === 0 ? 'no failpoint was armed' : `disarmed: ${ids.join(', ')}`);
          },
        })
        .demandCommand(1, 'name a failpoint command: set, list or clear'),
    handler: () => undefined,
  };
}
