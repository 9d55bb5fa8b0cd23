import type { Argv, CommandModule } from 'yargs';
import { UsageError } from '../../errors.js';
import { type SpawnFlags, spawnSpec } from '../spawn-spec.js';
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
          builder: (b) =>
            b
              .positional('count', { type: 'string', describe: 'how many, 1 to 200' })
              .option('recipe', {
                type: 'string',
                describe: 'predecessor (default), herd, single-file, priority; curator-latch or kazoo-election',
              })
              .option('exec', {
                type: 'boolean',
                describe:
                  'run the program after -- as each contender; it gets ZKLAB_CONNECT, ZKLAB_ID, ZKLAB_PATH, ' +
                  'ZKLAB_SESSION_TIMEOUT_MS and {connect} {id} {path} {session} in its arguments',
              })
              .option('leader-rule', {
                type: 'array',
                string: true,
                describe: "programs: who leads by ZooKeeper's view: lowest-sequence (default) or single-node NAME",
              })
              .option('curator-error-policy', {
                type: 'string',
                describe: 'curator-latch: standard (default: leadership ends on SUSPENDED) or session (on LOST)',
              })
              .option('session-timeout', { type: 'string', describe: 'a duration such as 2s or 500ms (default 2s)' })
              .option('path', { type: 'string', describe: 'election path (default /election)' })
              .option('priority', { type: 'string', describe: 'priority recipe: one number per contender, e.g. 5,3,1' })
              .option('site', { type: 'string', describe: 'priority recipe: one site per contender, e.g. a,a,b' })
              .option('policy', {
                type: 'string',
                describe: 'priority recipe: priority (default), site, first or round-robin',
              })
              .option('takeover-ms', {
                type: 'string',
                describe: 'priority recipe: how long the PROGRESS → READY work takes (default 500ms)',
              })
              .option('watchdog-ms', {
                type: 'string',
                describe:
                  'priority recipe: how long a named contender has to reach READY before the elector passes it over ' +
                  '(default 3 × takeover + 1s)',
              })
              .option('preempt', {
                type: 'boolean',
                describe:
                  'priority recipe: the elector replaces a live leader the policy ranks lower (default); --no-preempt keeps it',
              })
              .option('on-disconnect', {
                type: 'string',
                describe: 'pause (default) or ignore (unsafe: keeps leading through a disconnect)',
              })
              .option('connect', { type: 'string', describe: "HOST:PORT,… of another ensemble instead of the lab's" })
              .option('via', {
                type: 'string',
                describe: "all (default) or observers: which of the lab's servers the contenders connect to",
              })
              .option('workload', {
                type: 'string',
                describe:
                  "scheduler: the task scheduler's workers (seed 001), --path is its root (default /scheduler); " +
                  'lock: acquire → hold → release → think on the lock at --path (default /lock)',
              })
              .option('strategy', { type: 'string', describe: 'scheduler: round-robin (default) or random' })
              .option('status-ttl', {
                type: 'string',
                describe: "scheduler: how long a job's status znode lives (default 30s)",
              })
              .option('hold', { type: 'string', describe: 'lock: how long a holder keeps the lock (default 200ms)' })
              .option('think', {
                type: 'string',
                describe: 'lock: the pause between a release and the next try (default 100ms)',
              })
              .option('fencing', {
                type: 'string',
                describe: 'lock: on (default: the resource refuses a token lower than one it accepted) or off',
              })
              .option('join-timeout', {
                type: 'string',
                describe: 'how long to wait for them to join before taking the spawn back (default 30s)',
              })
              .option('probe', {
                type: 'string',
                describe:
                  "'COMMAND ARGS…' run for each node (no shell): exit 0 = it acts as leader now; " +
                  'placeholders {id} {n} {connect} {path}',
              })
              .option('probe-interval', { type: 'string', describe: 'how often each probe runs (default 250ms)' })
              .option('json', { type: 'boolean', default: false }) as Argv<SpawnArgs>,
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
            b
              .option('json', { type: 'boolean', default: false })
              .option('all', { type: 'boolean', default: false, describe: 'dead and stopped contenders too' })
              .option('wide', { type: 'boolean', default: false, describe: 'names and sessions whole (wider)' }),
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
            b.positional('ids', { type: 'string', array: true }).option('all', { type: 'boolean', default: false }),
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
