import type { Argv, CommandModule } from 'yargs';
import { UsageError } from '../../errors.js';
import { type SpawnFlags, spawnSpec, withContenderOptions } from '../spawn-spec.js';
import { withOptions } from '../options.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { labPaths } from '../context.js';
import { contendersJson, renderContenders, renderJoinProgress, renderSpawned } from '../views/contenders.js';
import { networkLines } from '../views/net.js';

interface SpawnArgs extends GlobalArgs, SpawnFlags {
  json?: boolean;
}

export function contendersCommand(ctx: CommandContext): CommandModule<GlobalArgs, GlobalArgs> {
  return {
    command: 'contenders',
    describe: 'Spawn, list and stop election contender processes',
    builder: (y: Argv<GlobalArgs>) =>
      y
        .command<SpawnArgs>({
          command: 'spawn <count>',
          describe:
            'Start <count> contenders: a zklab recipe, Curator or kazoo (--recipe), or any program (--exec -- PROGRAM ARGS…)',
          builder: (b) => withContenderOptions(b, { json: { type: 'boolean', default: false } }) as Argv<SpawnArgs>,
          handler: async (a) => {
            const { spawnContenders } = await import('../../contenders/service.js');
            const req = spawnSpec(a);
            const r = await spawnContenders(labPaths(a), req, {
              signal: ctx.signal,
              onJoin: (p) => ctx.err(renderJoinProgress(p)),
            });
            ctx.out(a.json ? JSON.stringify(contendersJson(r.spawned), null, 2) : renderSpawned(req, r));
          },
        })
        .command<GlobalArgs & { json?: boolean; wide?: boolean; all?: boolean }>({
          command: 'list',
          describe: 'Each running contender: pid, state, znode, session, what it watches',
          builder: (b) =>
            withOptions(b, {
              json: { type: 'boolean', default: false },
              all: { type: 'boolean', default: false, describe: 'dead and stopped contenders too' },
              wide: { type: 'boolean', default: false, describe: 'names and sessions whole (wider)' },
            }),
          handler: async (a) => {
            const { contendersOverview } = await import('../../contenders/service.js');
            const { contenders, network, zookeeper } = await contendersOverview(labPaths(a));
            const table = renderContenders(contenders, zookeeper, { wide: a.wide, all: a.all });
            ctx.out(
              a.json
                ? JSON.stringify(contendersJson(contenders, network, zookeeper), null, 2)
                : [table, ...(network ? networkLines(network.status) : [])].join('\n'),
            );
          },
        })
        .command<GlobalArgs & { ids?: string[]; all: boolean }>({
          command: 'stop [ids..]',
          describe: 'Stop contenders cleanly (their sessions close at once)',
          builder: (b) =>
            withOptions(b, { all: { type: 'boolean', default: false } }, { ids: { type: 'string', array: true } }),
          handler: async (a) => {
            const { stopContenders } = await import('../../contenders/service.js');
            const ids = a.ids ?? [];
            if (!a.all && ids.length === 0)
              throw new UsageError('name the contenders to stop, or --all', 'e.g. `zklab contenders stop c2 c3`');
            if (a.all && ids.length > 0)
              throw new UsageError('give contender ids or --all, not both', 'e.g. `zklab contenders stop --all`');
            const stopped = await stopContenders(labPaths(a), a.all ? 'all' : ids);
            ctx.out(stopped.length === 0 ? 'no running contender to stop' : `stopped ${stopped.join(', ')}`);
          },
        })
        .demandCommand(1, 'name a contenders command: spawn, list or stop'),
    handler: () => undefined,
  };
}
