import { HOSTS_OPTIONS, hostsArg } from '../hosts-option.js';
import type { Argv, CommandModule } from 'yargs';
import type { NetMode } from '../../lab/node/net.js';
import { evenCountWarning, validateObservers, validateServerCount, validateTick } from '../../ensemble/config.js';
import { validateBasePort } from '../../lab/ports.js';
import type { UpProgress } from '../../ensemble/service.js';
import { restart } from '../../faults/kinds/restart.js';
import { withOptions } from '../options.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { labPaths } from '../context.js';
import {
  renderConfigReport,
  renderDown,
  renderMembership,
  renderRestart,
  renderStatus,
  renderUp,
  statusJson,
} from '../views/ensemble.js';

interface UpArgs extends GlobalArgs {
  servers?: string;
  observers?: string;
  tick?: string;
  'base-port'?: string;
  net?: string;
  hosts?: string;
  place?: string;
  json?: boolean;
}

function progressPrinter(ctx: CommandContext) {
  return (p: UpProgress) => {
    if (p.kind === 'starting') ctx.err(`${p.repair ? 'restarting' : 'starting'} ${p.servers.join(', ')} …`);
    else if (p.kind === 'warning') ctx.err(`warning: ${p.message}`);
    else if (p.mode !== 'down') ctx.err(`  ${p.server}: ${p.mode}`);
  };
}

export function ensembleCommand(ctx: CommandContext): CommandModule<GlobalArgs, GlobalArgs> {
  return {
    command: 'ensemble',
    describe: "Start, inspect, restart and stop the lab's ZooKeeper ensemble",
    builder: (y: Argv<GlobalArgs>) =>
      y
        .command<UpArgs>({
          command: 'up',
          describe: 'Start an ensemble (or repair the servers of one that died) and wait for quorum',
          builder: (b) =>
            withOptions(b, {
              servers: { alias: 'n', type: 'string', describe: 'number of servers, 1 to 9 (default 3)' },
              observers: { type: 'string', describe: 'non-voting servers beside the voters (default 0)' },
              tick: { type: 'string', describe: 'tickTime, a duration (default 200ms)' },
              'base-port': {
                type: 'string',
                describe: "first port of the lab's block (default: a free block chosen per lab)",
              },
              net: {
                type: 'string',
                describe:
                  "proxy (default: link proxies on ZooKeeper's links) or ns (every node in a network namespace of " +
                  'its own; faults in the kernel; needs root)',
              },
              ...HOSTS_OPTIONS,
              json: { type: 'boolean', default: false, describe: 'print the status as JSON' },
            }),
          handler: async (a) => {
            const { ensembleUp } = await import('../../ensemble/service.js');
            const hosts = await hostsArg(a);
            const servers = a.servers === undefined ? undefined : validateServerCount(a.servers);
            const observers = a.observers === undefined ? undefined : validateObservers(a.observers, servers);
            const tickMs = a.tick === undefined ? undefined : validateTick(a.tick);
            const basePort = a['base-port'] === undefined ? undefined : validateBasePort(a['base-port']);
            const warning = servers === undefined ? undefined : evenCountWarning(servers);
            if (warning) ctx.err(warning);
            const paths = labPaths(a);
            const started = Date.now();
            const result = await ensembleUp(paths, {
              servers,
              observers,
              tickMs,
              basePort,
              ...(a.net === undefined ? {} : { net: a.net as NetMode }),
              ...(hosts === undefined ? {} : { hosts }),
              zkHome: a['zk-home'],
              signal: ctx.signal,
              onProgress: a.json ? undefined : progressPrinter(ctx),
            });
            if (a.json) {
              ctx.out(JSON.stringify({ outcome: result.outcome, ...(statusJson(result.status) as object) }, null, 2));
              return;
            }
            ctx.out(renderUp(result, paths.root, Date.now() - started));
          },
        })
        .command<GlobalArgs & { json?: boolean }>({
          command: 'status',
          describe: 'Ask every server for its mode, zxid and connections',
          builder: (b) => withOptions(b, { json: { type: 'boolean', default: false, describe: 'print JSON' } }),
          handler: async (a) => {
            const { ensembleStatus } = await import('../../ensemble/service.js');
            const status = await ensembleStatus(labPaths(a));
            ctx.out(a.json ? JSON.stringify(statusJson(status), null, 2) : renderStatus(status));
          },
        })
        .command<GlobalArgs & { purge?: boolean }>({
          command: 'down',
          describe: 'Stop every process of the lab and wait for them to exit',
          builder: (b) =>
            withOptions(b, {
              purge: { type: 'boolean', default: false, describe: 'also delete data, logs and state' },
            }),
          handler: async (a) => {
            const { ensembleDown } = await import('../../ensemble/service.js');
            const paths = labPaths(a);
            const r = await ensembleDown(paths, { purge: a.purge });
            ctx.out(renderDown(r, paths.root));
          },
        })
        .command<GlobalArgs & { target: string }>({
          command: 'restart <target>',
          describe: restart.description,
          builder: (b) =>
            withOptions(b, {}, { target: { type: 'string', demandOption: true, describe: 'zkN or all' } }),
          handler: async (a) => {
            const { applyRestart } = await import('../../faults/kinds/restart.js');
            const status = await applyRestart(labPaths(a), a.target, {
              signal: ctx.signal,
              onProgress: progressPrinter(ctx),
              zkHome: a['zk-home'],
            });
            ctx.out(renderRestart(status, a.target));
          },
        })
        .command<GlobalArgs & { observer?: boolean; id?: string; json?: boolean }>({
          command: 'add',
          describe: 'Start a new server and join it to the ensemble by dynamic reconfiguration',
          builder: (b) =>
            withOptions(b, {
              observer: { type: 'boolean', default: false, describe: 'join it as an observer (no vote)' },
              id: { type: 'string', describe: 'its server id (default: the lowest free one)' },
              json: { type: 'boolean', default: false, describe: 'print JSON' },
            }),
          handler: async (a) => {
            const { ensembleAdd, describeStepTimes } = await import('../../ensemble/membership.js');
            const r = await ensembleAdd(labPaths(a), {
              observer: a.observer,
              id: a.id,
              signal: ctx.signal,
              onStep: a.json ? undefined : (s) => ctx.err(s),
            });
            ctx.out(a.json ? JSON.stringify(r, null, 2) : renderMembership(r, 'added', describeStepTimes(r.steps)));
          },
        })
        .command<GlobalArgs & { server: string; json?: boolean }>({
          command: 'remove <server>',
          describe: 'Remove a server from the ensemble by dynamic reconfiguration, then stop it',
          builder: (b) =>
            withOptions(
              b,
              { json: { type: 'boolean', default: false, describe: 'print JSON' } },
              { server: { type: 'string', demandOption: true, describe: 'zkN' } },
            ),
          handler: async (a) => {
            const { ensembleRemove, describeStepTimes } = await import('../../ensemble/membership.js');
            const r = await ensembleRemove(labPaths(a), a.server, {
              signal: ctx.signal,
              onStep: a.json ? undefined : (s) => ctx.err(s),
            });
            ctx.out(a.json ? JSON.stringify(r, null, 2) : renderMembership(r, 'removed', describeStepTimes(r.steps)));
          },
        })
        .command<GlobalArgs & { json?: boolean }>({
          command: 'config',
          describe: 'Print the dynamic configuration and its version, as each server reports it',
          builder: (b) => withOptions(b, { json: { type: 'boolean', default: false, describe: 'print JSON' } }),
          handler: async (a) => {
            const { ensembleConfig } = await import('../../ensemble/membership.js');
            const r = await ensembleConfig(labPaths(a));
            ctx.out(a.json ? JSON.stringify(r, null, 2) : renderConfigReport(r));
          },
        })
        .demandCommand(1, 'name an ensemble command: up, status, down, restart, add, remove or config'),
    handler: () => undefined,
  };
}
