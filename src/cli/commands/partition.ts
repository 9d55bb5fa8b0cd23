import type { Argv, CommandModule } from 'yargs';
import { withOptions } from '../options.js';
import type { CommandContext, GlobalArgs } from '../context.js';
import { labPaths } from '../context.js';
import { applyHeal, heal } from '../../faults/kinds/heal.js';
import { applyIsolate, isolate } from '../../faults/kinds/isolate.js';
import { applyOneWay, oneWay } from '../../faults/kinds/one-way.js';
import { applySplit, split } from '../../faults/kinds/split.js';
import { listingJson, renderListing } from '../views/net.js';

const TARGETS = 'zkN, cN, leader (the leading contender) or zk-leader (the leading server)';

const modeOption = {
  type: 'string',
  describe: 'blackhole (default: silence, sockets stay open) or reject (connections are reset)',
} as const;

export function partitionCommand(ctx: CommandContext): CommandModule<GlobalArgs, GlobalArgs> {
  return {
    command: 'partition',
    describe: 'Cut links between lab members (servers and contenders): isolate one, split into groups, one way, list',
    builder: (y: Argv<GlobalArgs>) =>
      y
        .command<GlobalArgs & { target: string; mode?: string }>({
          command: 'isolate <target>',
          describe: isolate.description,
          builder: (b) =>
            withOptions(b, { mode: modeOption }, { target: { type: 'string', demandOption: true, describe: TARGETS } }),
          handler: async (a) => {
            const { parseMode } = await import('../../net/service.js');
            const r = await applyIsolate(labPaths(a), a.target, parseMode(a.mode));
            ctx.out(
              `${r.description}${r.member === a.target ? '' : ` (${a.target} is ${r.member})`}; \`zklab heal ${r.member}\` ends it`,
            );
          },
        })
        .command<GlobalArgs & { groups: string[]; mode?: string }>({
          command: 'split <groups..>',
          describe: split.description,
          builder: (b) =>
            withOptions(b, { mode: modeOption }, { groups: { type: 'string', array: true, demandOption: true } }),
          handler: async (a) => {
            const { parseMode } = await import('../../net/service.js');
            const { parseGroup } = await import('../../faults/targets.js');
            const mode = parseMode(a.mode);
            const r = await applySplit(labPaths(a), a.groups.map(String).map(parseGroup), mode);
            ctx.out(`${r.description}; \`zklab heal\` ends it`);
          },
        })
        .command<GlobalArgs & { from: string; to: string; mode?: string }>({
          command: 'one-way <from> <to>',
          describe: oneWay.description,
          builder: (b) =>
            withOptions(
              b,
              { mode: modeOption },
              {
                from: { type: 'string', demandOption: true, describe: TARGETS },
                to: { type: 'string', demandOption: true, describe: TARGETS },
              },
            ),
          handler: async (a) => {
            const { parseMode } = await import('../../net/service.js');
            const r = await applyOneWay(labPaths(a), a.from, a.to, parseMode(a.mode));
            ctx.out(`${r.description}; \`zklab heal ${r.member}\` ends it`);
          },
        })
        .command<GlobalArgs & { json?: boolean }>({
          command: 'list',
          describe: 'Active partitions and delays, and the links they affect',
          builder: (b) => withOptions(b, { json: { type: 'boolean', default: false, describe: 'print JSON' } }),
          handler: async (a) => {
            const { listNetwork } = await import('../../net/service.js');
            const l = await listNetwork(labPaths(a));
            ctx.out(a.json ? JSON.stringify(listingJson(l), null, 2) : renderListing(l));
          },
        })
        .demandCommand(1, 'name a partition command: isolate, split, one-way or list'),
    handler: () => undefined,
  };
}

export function healCommand(ctx: CommandContext): CommandModule<GlobalArgs, GlobalArgs & { target?: string }> {
  return {
    command: 'heal [target]',
    describe: heal.description,
    builder: (y: Argv<GlobalArgs>) =>
      withOptions(y, {}, { target: { type: 'string', describe: 'a member; all partitions when left out' } }) as Argv<
        GlobalArgs & { target?: string }
      >,
    handler: async (a) => {
      const r = await applyHeal(labPaths(a), a.target);
      if (r.healed.length === 0)
        ctx.out(`nothing to heal${a.target ? ` for ${a.target}` : ''}: no partition cuts ${a.target ?? 'anyone'} off`);
      else
        ctx.out(
          `healed: ${r.healed.join('; ')}${r.remaining.length > 0 ? `\nstill active: ${r.remaining.join('; ')}` : ''}`,
        );
    },
  };
}
